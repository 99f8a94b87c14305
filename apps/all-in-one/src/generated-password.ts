import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A secret made once by `make` and kept in `file` (mode 0600) for the embedded default: what it protects (accounts
 * in the embedded database, a shared secret of two apps) is kept between runs too, so the secret must be.
 */
export function secretKeptIn(file: string, make: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = make();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** A password generated once and kept in `file` (mode 0600) for the embedded default's accounts. */
export function passwordKeptIn(file: string): string {
  return secretKeptIn(file, () => randomBytes(24).toString('base64url'));
}
