import { DrfException } from '../drf/exceptions';
import { idempotencyKeyOf, requestFingerprint } from './idempotency-key';

describe('idempotencyKeyOf', () => {
  it('takes the IETF draft form (a Structured Field string) and a bare token', () => {
    expect(idempotencyKeyOf('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(idempotencyKeyOf('8e03978e-40d5')).toBe('8e03978e-40d5');
    expect(idempotencyKeyOf(' tap-1 ')).toBe('tap-1');
    expect(idempotencyKeyOf('"with space and \\"quote\\""')).toBe('with space and "quote"');
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it.each(['', '""', '"a', '"a" b', '"é"', 'é', `"${'k'.repeat(256)}"`, 'k'.repeat(256)])(
    'refuses %j with a 400',
    (header) => {
      expect(() => idempotencyKeyOf(header)).toThrow(DrfException);
    },
  );
});

describe('requestFingerprint', () => {
  const none = new Map();
  it('ignores key order and tells bodies, paths and methods apart', () => {
    const a = requestFingerprint(
      'POST',
      '/api/records/',
      { kind: 'json', data: { a: 1, b: [2, { c: 3, d: 4 }] } },
      none,
    );
    const b = requestFingerprint(
      'POST',
      '/api/records/',
      { kind: 'json', data: { b: [2, { d: 4, c: 3 }], a: 1 } },
      none,
    );
    expect(a).toBe(b);
    expect(requestFingerprint('POST', '/api/records/', { kind: 'json', data: { a: 2 } }, none)).not.toBe(a);
    expect(
      requestFingerprint(
        'PATCH',
        '/api/records/',
        { kind: 'json', data: { a: 1, b: [2, { c: 3, d: 4 }] } },
        none,
      ),
    ).not.toBe(a);
  });
});
