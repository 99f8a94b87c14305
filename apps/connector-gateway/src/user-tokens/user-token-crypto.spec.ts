import { UserTokenCrypto } from './user-token-crypto';

describe('UserTokenCrypto', () => {
  const crypto = new UserTokenCrypto('user-token-key-for-tests-0123456789abcdef');

  it('opens what it sealed for the same record only', () => {
    const sealed = crypto.seal({ accessToken: 'secret-token' }, 'usertoken:token:alice');
    expect(sealed).not.toContain('secret-token');
    expect(crypto.open(sealed, 'usertoken:token:alice')).toEqual({ accessToken: 'secret-token' });
    // Moved to another user's record, or tampered with: unreadable.
    expect(crypto.open(sealed, 'usertoken:token:mallory')).toBeUndefined();
    const [version, iv, body, tag] = sealed.split('.');
    const flipped = `${body?.startsWith('A') ? 'B' : 'A'}${body?.slice(1) ?? ''}`;
    expect(crypto.open([version, iv, flipped, tag].join('.'), 'usertoken:token:alice')).toBeUndefined();
    expect(crypto.open('garbage', 'usertoken:token:alice')).toBeUndefined();
  });

  it('needs the same key: another key (or a random one) cannot open or verify', () => {
    const sealed = crypto.seal({ a: 1 }, 'r');
    expect(
      new UserTokenCrypto('user-token-key-for-tests-0123456789abcdee').open(sealed, 'r'),
    ).toBeUndefined();
    expect(new UserTokenCrypto(undefined).verifyState(crypto.signState('id-1'))).toBeUndefined();
    expect(new UserTokenCrypto('user-token-key-for-tests-0123456789abcdef').open(sealed, 'r')).toEqual({
      a: 1,
    });
  });

  it('signs sign-in states and refuses forged ones', () => {
    const state = crypto.signState('pending-id');
    expect(crypto.verifyState(state)).toBe('pending-id');
    expect(crypto.verifyState(state.replace('pending-id', 'other-id'))).toBeUndefined();
    expect(crypto.verifyState(`pending-id.${'x'.repeat(43)}`)).toBeUndefined();
    expect(crypto.verifyState('pending-id')).toBeUndefined();
    expect(crypto.verifyState('')).toBeUndefined();
  });
});
