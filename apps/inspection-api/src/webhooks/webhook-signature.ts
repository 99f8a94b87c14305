import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com/): the secret is `whsec_` + base64 of the key
 * bytes; the signature of a message is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), sent in
 * `webhook-signature` with `webhook-id` and `webhook-timestamp` (Unix seconds).
 */
export const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: 32 random bytes. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The key bytes of a secret (`whsec_` + base64 of 24 to 64 bytes), or undefined when it is not one. */
export function secretKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('not a webhook secret');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one delivery attempt. */
export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  now: Date = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}

/**
 * What a receiver does: true when one of the space-separated `v1,` signatures matches and the timestamp is within
 * `toleranceSeconds` of now (replays of old messages are refused).
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  now: Date = new Date(),
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds)
    return false;
  const expected = Buffer.from(sign(secret, headers.id, timestamp, body));
  return headers.signature
    .split(' ')
    .map((candidate) => Buffer.from(candidate))
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
}
