import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { proseOf, repositoryRoot } from './markdown';

/** Paths the rule index names: backticked, starting at a top-level folder of the repository. */
function namedPaths(): string[] {
  const text = proseOf('docs/architecture/rule-index.md');
  const paths = [...text.matchAll(/`((?:apps|libs|infra|bench|docs)\/[^`\s]+)`/g)].map((match) => match[1]);
  return [...new Set(paths)];
}

describe('the rule index (docs/architecture/rule-index.md)', () => {
  it('names the owners of the rules', () => {
    expect(namedPaths().length).toBeGreaterThanOrEqual(15);
  });

  it.each(namedPaths())('%s exists', (path) => {
    expect(existsSync(join(repositoryRoot, path))).toBe(true);
  });
});
