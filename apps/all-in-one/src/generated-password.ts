import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A password generated once and kept in `file` (mode 0600) for the embedded default's accounts: they live in the
 * embedded database, which is kept between runs too, so the password must be.
 */
export function passwordKeptIn(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}
