import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './repository-root';

describe('repositoryRoot', () => {
  it('finds the package.json that declares workspaces, skipping workspace packages', () => {
    const root = mkdtempSync(join(tmpdir(), 'repo-root-'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'root', workspaces: ['apps/*'] }));
    const app = join(root, 'apps', 'a', 'dist', 'config');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(root, 'apps', 'a', 'package.json'), JSON.stringify({ name: 'a' }));
    expect(repositoryRoot(app)).toBe(root);
  });

  it('falls back to the working directory outside a monorepo', () => {
    expect(repositoryRoot(mkdtempSync(join(tmpdir(), 'no-repo-')))).toBe(process.cwd());
  });
});
