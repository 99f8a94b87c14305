import { type BotConfig } from '@fieldops/platform-config';
import {
  assertEnhancedAuthentication,
  ENHANCED_AUTHENTICATION_REFUSAL,
  originRefusal,
  originRefused,
  trustedOriginsFor,
} from './enhanced-authentication';

const bot = (directLine: Partial<NonNullable<BotConfig['directLine']>>): BotConfig =>
  ({
    id: 'b',
    directLine: { secrets: [], enhancedAuthentication: false, trustedOrigins: [], ...directLine },
  }) as unknown as BotConfig;

const enhanced = bot({ enhancedAuthentication: true, trustedOrigins: ['https://chat.example.com'] });
const plain = bot({});
const refusal = expect.objectContaining({
  status: 400,
  code: 'MissingProperty',
  message: ENHANCED_AUTHENTICATION_REFUSAL,
}) as Error;

describe('enhanced authentication', () => {
  it('accepts only user ids starting with dl_ on a channel that has it, with one refusal for the rest', () => {
    expect(() => assertEnhancedAuthentication(enhanced, 'dl_alice')).not.toThrow();
    for (const userId of [undefined, '', 'alice', 'DL_alice', 'xdl_alice']) {
      let thrown: unknown;
      try {
        assertEnhancedAuthentication(enhanced, userId);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toEqual(refusal);
    }
  });

  it('accepts any user id, or none, on a channel without it', () => {
    expect(() => assertEnhancedAuthentication(plain, undefined)).not.toThrow();
    expect(() => assertEnhancedAuthentication(plain, 'alice')).not.toThrow();
  });

  it("binds the channel's trusted origins under enhanced authentication, else the token's", () => {
    expect(trustedOriginsFor(enhanced, ['https://other.example.com'])).toEqual(['https://chat.example.com']);
    expect(trustedOriginsFor(plain, ['https://other.example.com'])).toEqual(['https://other.example.com']);
    expect(trustedOriginsFor(plain, [])).toEqual([]);
  });

  it('refuses an Origin outside a non-empty trusted list; no Origin or no list is let through', () => {
    expect(originRefused('https://evil.example.com', ['https://chat.example.com'])).toBe(true);
    expect(originRefused('https://chat.example.com', ['https://chat.example.com'])).toBe(false);
    expect(originRefused(undefined, ['https://chat.example.com'])).toBe(false);
    expect(originRefused('https://evil.example.com', [])).toBe(false);
  });
});

describe('originRefusal (the guard and the stream upgrade)', () => {
  it('is a 403 BadArgument naming the origin when it is not trusted, and nothing otherwise', () => {
    expect(originRefusal('https://evil.example', enhanced, [])).toMatchObject({
      status: 403,
      code: 'BadArgument',
      message: 'Origin https://evil.example is not a trusted origin',
    });
    expect(originRefusal('https://chat.example.com', enhanced, ['https://evil.example'])).toBeUndefined();
    expect(originRefusal(undefined, enhanced, [])).toBeUndefined();
    expect(originRefusal('https://evil.example', plain, [])).toBeUndefined();
    expect(originRefusal('https://evil.example', plain, ['https://app.example'])).toMatchObject({
      status: 403,
    });
    expect(originRefusal('https://app.example', plain, ['https://app.example'])).toBeUndefined();
  });
});
