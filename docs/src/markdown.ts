import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root (this package is `docs/`). */
export const repositoryRoot = join(__dirname, '..', '..');

const skipped = new Set(['node_modules', 'dist', '.turbo', '.reports', '.data', '.git', 'coverage']);

/** Every Markdown file of the repository, as paths relative to its root. */
export function markdownFiles(directory = repositoryRoot): string[] {
  const found: string[] = [];
  for (const name of readdirSync(directory)) {
    if (skipped.has(name)) continue;
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...markdownFiles(path));
    else if (name.endsWith('.md')) found.push(relative(repositoryRoot, path));
  }
  return found.sort();
}

/** The text of a file, lines inside fenced code blocks blanked (their links and paths are examples). */
export function proseOf(file: string): string {
  let fenced = false;
  return readFileSync(join(repositoryRoot, file), 'utf8')
    .split('\n')
    .map((line) => {
      if (line.trimStart().startsWith('```')) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}
