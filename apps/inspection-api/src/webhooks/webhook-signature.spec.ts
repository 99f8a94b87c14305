import { createHmac } from 'node:crypto';
import { newSecret, secretKey, sign, signatureHeaders, verify } from './webhook-signature';

// The Standard Webhooks specification's test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';

describe('webhook signature (Standard Webhooks)', () => {
  it('matches the specification’s example', () => {
    expect(sign(SECRET, ID, TIMESTAMP, BODY)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is HMAC-SHA256 of "id.timestamp.body" with the decoded key, base64', () => {
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${ID}.${TIMESTAMP}.${BODY}`).digest('base64');
    expect(sign(SECRET, ID, TIMESTAMP, BODY)).toBe(`v1,${mac}`);
  });

  it('verifies its own headers, and refuses another body, secret or an old timestamp', () => {
    const secret = newSecret();
    const now = new Date();
    const headers = signatureHeaders(secret, 'evt_1', BODY, now);
    const received = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
    };
    expect(verify(secret, received, BODY, now)).toBe(true);
    expect(verify(secret, { ...received, signature: `v1,bad ${received.signature}` }, BODY, now)).toBe(true);
    expect(verify(secret, received, `${BODY} `, now)).toBe(false);
    expect(verify(newSecret(), received, BODY, now)).toBe(false);
    expect(verify(secret, received, BODY, new Date(now.getTime() + 301_000))).toBe(false);
  });

  it('accepts only whsec_ secrets of 24 to 64 bytes', () => {
    expect(secretKey(newSecret())?.length).toBe(32);
    expect(secretKey(SECRET)?.length).toBe(24);
    expect(secretKey('whsec_c2hvcnQ=')).toBeUndefined();
    expect(secretKey('plain secret')).toBeUndefined();
    expect(secretKey(`whsec_${Buffer.alloc(65).toString('base64')}`)).toBeUndefined();
  });
});
