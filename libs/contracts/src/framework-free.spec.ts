import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Wire contracts are shared by every app and peer test; they must not pull in Nest or the Nest-based platform. */
const FORBIDDEN = /^(@nestjs\/|@fieldops\/platform(\/|$))/;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
function importsOf(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((match) => match[1]);
}

describe('@fieldops/contracts is free of Nest', () => {
  it('declares no dependency on Nest or @fieldops/platform', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const declared = ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies'].flatMap(
      (field) => Object.keys(manifest[field] ?? {}),
    );
    expect(declared.filter((name) => FORBIDDEN.test(name))).toEqual([]);
  });

  it('imports neither Nest nor @fieldops/platform in any source or spec', () => {
    // This spec names the forbidden imports in its probe below; every other file is read.
    const files = sourceFiles(__dirname).filter((file) => file !== __filename);
    expect(files.length).toBeGreaterThan(3);
    const offending = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((specifier) => FORBIDDEN.test(specifier))
        .map((specifier) => `${relative(__dirname, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('recognises the import forms it forbids', () => {
    const probe = [
      "import { Injectable } from '@nestjs/common';",
      "import type { Logger } from '@fieldops/platform';",
      "export * from '@fieldops/platform/dist/x';",
      "const m = await import('@nestjs/core');",
      "require('@fieldops/platform');",
      "import { x } from '@fieldops/platform-config';",
    ].join('\n');
    expect(importsOf(probe).filter((specifier) => FORBIDDEN.test(specifier))).toEqual([
      '@nestjs/common',
      '@fieldops/platform',
      '@fieldops/platform/dist/x',
      '@nestjs/core',
      '@fieldops/platform',
    ]);
  });
});
