import { createLogger } from '@fieldops/platform';
import { type PlatformConfig } from './relay-settings';
import { TokenIssuer } from './token-issuer';

const config = { bots: [], relay: { tokenSigningKeys: ['k'.repeat(40)] } } as unknown as PlatformConfig;
const bot = { id: 'bot-1', directLine: { secrets: [], tokenLifetimeSeconds: 60 } } as never;

describe('TokenIssuer.verify', () => {
  afterEach(() => jest.restoreAllMocks());

  it('remembers a verified token only until it expires', () => {
    const issuer = new TokenIssuer(config, createLogger({ service: 'test', level: 'silent' }));
    const { token } = issuer.issueConversationToken(bot, 'c1', {}, 60);
    const first = issuer.verify(token);
    expect(first.claims.conv).toBe('c1');
    expect(issuer.verify(token)).toBe(first);
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    expect(() => issuer.verify(token)).toThrow(expect.objectContaining({ status: 403 }) as Error);
  });

  it('still refuses a tampered token', () => {
    const issuer = new TokenIssuer(config, createLogger({ service: 'test', level: 'silent' }));
    const { token } = issuer.issueConversationToken(bot, 'c1', {}, 60);
    issuer.verify(token);
    expect(() => issuer.verify(`${token.slice(0, -2)}xx`)).toThrow(
      expect.objectContaining({
        status: 403,
        code: 'BadArgument',
        message: 'Invalid token or secret',
      }) as Error,
    );
  });
});
