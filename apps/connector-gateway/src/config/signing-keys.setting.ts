import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One entry of `CONNECTOR_SIGNING_KEYS` as written by the operator (JSON). */
export interface SigningKeySetting {
  /** Key id published in the JWKS and put in the token header (`kid`, `x5t`). Default: a thumbprint of the public key. */
  kid?: string;
  /** The RSA private key as PEM text … */
  pem?: string;
  /** … or the path of a PEM file (a mounted Kubernetes Secret, for example). Exactly one of `pem` and `file`. */
  file?: string;
  /** ISO 8601 instant from which the key signs; before that it is only published. Default: always active. */
  activatesAt?: string;
}

/** A signing key after validation: parsed, identified, with its activation instant. */
export interface ResolvedSigningKey {
  kid: string;
  privateKey: KeyObject;
  activatesAt: Date;
}

/** A stable key id for a key: base64url of the first 20 bytes of the SHA-256 of its SubjectPublicKeyInfo. */
export function keyIdOf(privateKey: KeyObject): string {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(spki).digest().subarray(0, 20).toString('base64url');
}

/** Parses an RSA private key (2048 bits or more); throws with a short reason. */
export function parseRsaPrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`is a ${key.asymmetricKeyType} key; RS256 needs RSA`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw new Error(`has ${bits} bits; at least 2048 are needed`);
  return key;
}

const KID = /^[A-Za-z0-9._~-]{1,64}$/;

/**
 * Parses the JSON value of `CONNECTOR_SIGNING_KEYS` (an array of SigningKeySetting), reading the files it
 * names. Returns the keys or the list of problems, each naming the entry (`[1].file: …`).
 */
export function resolveSigningKeys(raw: string): { keys: ResolvedSigningKey[] } | { problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { problems: ['is not valid JSON (expected an array of {kid?, pem | file, activatesAt?})'] };
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    return { problems: ['must be a non-empty JSON array of {kid?, pem | file, activatesAt?}'] };
  }
  const problems: string[] = [];
  const keys: ResolvedSigningKey[] = [];
  const kids = new Set<string>();
  parsed.forEach((entry: unknown, index) => {
    const at = `[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    const setting = entry as Record<string, unknown>;
    const unknownFields = Object.keys(setting).filter(
      (field) => !['kid', 'pem', 'file', 'activatesAt'].includes(field),
    );
    if (unknownFields.length > 0) problems.push(`${at}: unknown field(s) ${unknownFields.join(', ')}`);
    const { kid, pem, file, activatesAt } = setting;
    if ((pem === undefined) === (file === undefined)) {
      problems.push(`${at}: give exactly one of "pem" and "file"`);
      return;
    }
    let text: string;
    if (pem !== undefined) {
      if (typeof pem !== 'string') return void problems.push(`${at}.pem: must be a string`);
      text = pem;
    } else {
      if (typeof file !== 'string') return void problems.push(`${at}.file: must be a string`);
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        return void problems.push(`${at}.file: cannot read ${file} (${(error as Error).message})`);
      }
    }
    let privateKey: KeyObject;
    try {
      privateKey = parseRsaPrivateKey(text);
    } catch (error) {
      return void problems.push(
        `${at}.${pem !== undefined ? 'pem' : 'file'}: not a usable RSA private key: ${(error as Error).message}`,
      );
    }
    if (kid !== undefined && (typeof kid !== 'string' || !KID.test(kid))) {
      return void problems.push(`${at}.kid: must be 1-64 characters of A-Z a-z 0-9 . _ ~ -`);
    }
    let activation = new Date(0);
    if (activatesAt !== undefined) {
      activation = new Date(typeof activatesAt === 'string' ? activatesAt : Number.NaN);
      if (Number.isNaN(activation.getTime()))
        return void problems.push(`${at}.activatesAt: must be an ISO 8601 date-time`);
    }
    const id = kid ?? keyIdOf(privateKey);
    if (kids.has(id)) return void problems.push(`${at}.kid: duplicate key id ${id}`);
    kids.add(id);
    keys.push({ kid: id, privateKey, activatesAt: activation });
  });
  return problems.length > 0 ? { problems } : { keys };
}
