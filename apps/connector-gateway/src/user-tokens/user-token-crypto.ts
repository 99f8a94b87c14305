import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const VERSION = 'v1';

/**
 * The user-token service's keys, derived (HKDF-SHA256) from CONNECTOR_USER_TOKEN_KEY: AES-256-GCM for what is stored
 * (users' tokens, pending sign-ins), HMAC-SHA256 for the sign-in `state` sent through the browser. A sealed value is
 * bound to the record it was sealed for (the record's key is the associated data), so it cannot be moved to another
 * user's record.
 */
export class UserTokenCrypto {
  private readonly encryptionKey: Buffer;
  private readonly signingKey: Buffer;

  /** `secret` undefined: a random key (one process only; nothing survives a restart). */
  constructor(secret: string | undefined) {
    const input = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
    const derive = (purpose: string) =>
      Buffer.from(hkdfSync('sha256', input, Buffer.alloc(0), `fieldops user-token ${purpose}`, 32));
    this.encryptionKey = derive('encryption');
    this.signingKey = derive('state');
  }

  /** Encrypts `value` (JSON) for the record named `record`. */
  seal(value: unknown, record: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(record, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      body.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** Decrypts what `seal` made for the same record; undefined when it was not (tampered, moved, other key). */
  open<T>(sealed: string, record: string): T | undefined {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(record, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const text = Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  /** `id.signature`: what travels through the browser as the OAuth `state`. */
  signState(id: string): string {
    return `${id}.${this.stateSignature(id)}`;
  }

  /** The id a signed state carries, or undefined when the signature does not match (forged). */
  verifyState(state: string): string | undefined {
    const dot = state.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const id = state.slice(0, dot);
    const given = Buffer.from(state.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.stateSignature(id), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }

  private stateSignature(id: string): string {
    return createHmac('sha256', this.signingKey).update(id, 'utf8').digest('base64url');
  }
}
