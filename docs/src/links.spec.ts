import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { markdownFiles, proseOf, repositoryRoot } from './markdown';

describe('relative links in the Markdown files', () => {
  const files = markdownFiles();

  it('finds the docs', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'DEVELOPMENT.md', 'docs/architecture/rule-index.md']),
    );
  });

  it.each(files)('%s links only to files that exist', (file) => {
    const targets = [...proseOf(file).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1].split('#')[0])
      .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
    const missing = targets.filter((target) => !existsSync(join(repositoryRoot, dirname(file), target)));
    expect(missing).toEqual([]);
  });
});
