import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The monorepo's root (the nearest package.json above `start` that declares workspaces), where the
 * embedded defaults keep their state in `.data/`; falls back to the working directory (e.g. in an image).
 */
export function repositoryRoot(start: string): string {
  for (let directory = start; directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object))
      return directory;
  }
  return process.cwd();
}
