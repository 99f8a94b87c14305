import { Controller, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { createLogger } from '@fieldops/platform';
import { RateLimitStore } from '@fieldops/rate-limits';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { AcceptLegacySchemes, DirectLineAuthGuard, ExemptFromEnhancedAuth } from './direct-line-auth.guard';
import { type PlatformConfig } from './relay-settings';
import { TokenIssuer } from './token-issuer';

const SECRET = 's'.repeat(32);
const ENHANCED_SECRET = 'e'.repeat(32);
const config = {
  bots: [
    { id: 'bot-1', directLine: { secrets: [SECRET], trustedOrigins: [], tokenLifetimeSeconds: 3600 } },
    {
      id: 'bot-2',
      directLine: {
        secrets: [ENHANCED_SECRET],
        enhancedAuthentication: true,
        trustedOrigins: ['https://chat.example.com'],
        tokenLifetimeSeconds: 3600,
      },
    },
    { id: 'no-channel' },
  ],
  relay: { tokenSigningKeys: ['k'.repeat(40)] },
} as unknown as PlatformConfig;
const [bot1, bot2, noChannel] = config.bots;

@Controller()
class Routes {
  @Post()
  send(): void {}

  @Post()
  @ExemptFromEnhancedAuth()
  generate(): void {}

  @Post()
  @AcceptLegacySchemes()
  v1(): void {}
}

interface Call {
  authorization?: string;
  conversationId?: string;
  origin?: string;
  handler?: keyof Routes;
}

function setup(perToken = 100) {
  const logger = createLogger({ service: 'test', level: 'silent' });
  const issuer = new TokenIssuer(config, logger);
  const environment = { RELAY_RATE_LIMIT_PER_TOKEN: perToken } as RelayGatewayEnvironment;
  const guard = new DirectLineAuthGuard(
    config,
    issuer,
    new Reflector(),
    environment,
    new RateLimitStore({ kind: 'memory' }),
    logger,
  );
  /** Response headers the guard removed, for the last call. */
  const removed: string[] = [];
  const call = async ({ authorization, conversationId, origin, handler = 'send' }: Call) => {
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (origin !== undefined) headers.origin = origin;
    const request: Record<string, unknown> = { headers, params: conversationId ? { conversationId } : {} };
    removed.length = 0;
    const response = { removeHeader: (name: string) => removed.push(name) };
    const context = new ExecutionContextHost([request, response], Routes, Routes.prototype[handler]);
    const allowed = await guard.canActivate(context);
    return { allowed, credential: request.directLineCredential };
  };
  return { issuer, call, removed };
}

const refusal = (status: number, code: string, message?: string | RegExp) =>
  expect.objectContaining({
    status,
    code,
    ...(message ? { message: expect.stringMatching(message) } : {}),
  }) as Error;

describe('DirectLineAuthGuard', () => {
  it('accepts a secret for any conversation of its bot, keyed for rate limits by a digest, never the secret', async () => {
    const { call } = setup();
    const { allowed, credential } = await call({ authorization: `Bearer ${SECRET}`, conversationId: 'any' });
    expect(allowed).toBe(true);
    expect(credential).toEqual({
      kind: 'secret',
      bot: bot1,
      key: expect.stringMatching(/^secret:/) as string,
    });
    expect((credential as { key: string }).key).not.toContain(SECRET);
  });

  it('refuses a missing header, another scheme, or a value with a space in it: 401 BadArgument', async () => {
    const { call } = setup();
    for (const authorization of [undefined, '', SECRET, `Basic ${SECRET}`, `Bearer`, `Bearer a b`]) {
      await expect(call({ authorization })).rejects.toThrow(
        refusal(401, 'BadArgument', 'Missing token or secret'),
      );
    }
  });

  it('accepts the Connector and BotConnector scheme words only on routes that accept the 1.1 schemes', async () => {
    const { call } = setup();
    await expect(call({ authorization: `BotConnector ${SECRET}` })).rejects.toThrow(
      refusal(401, 'BadArgument'),
    );
    for (const scheme of ['Connector', 'BotConnector', 'bearer'])
      expect((await call({ authorization: `${scheme} ${SECRET}`, handler: 'v1' })).allowed).toBe(true);
  });

  it('accepts a conversation token for its own conversation only: 403 for another', async () => {
    const { issuer, call } = setup();
    const { token } = issuer.issueConversationToken(bot1, 'c1', { userId: 'u1', userName: 'Ann' });
    const { credential } = await call({ authorization: `Bearer ${token}`, conversationId: 'c1' });
    expect(credential).toMatchObject({
      kind: 'token',
      bot: bot1,
      conversationId: 'c1',
      userId: 'u1',
      userName: 'Ann',
    });
    await expect(call({ authorization: `Bearer ${token}`, conversationId: 'c2' })).rejects.toThrow(
      refusal(403, 'BadArgument', 'Security token not valid for this conversation'),
    );
  });

  it('refuses a stream token, a token of a bot without a channel, and a token signed with another key: 403', async () => {
    const { issuer, call } = setup();
    const stream = issuer.issueStreamToken(bot1, 'c1');
    const orphan = issuer.issueConversationToken(noChannel, 'c1').token;
    const foreign = new TokenIssuer(
      { ...config, relay: { tokenSigningKeys: ['x'.repeat(40)] } },
      createLogger({ service: 'test', level: 'silent' }),
    ).issueConversationToken(bot1, 'c1').token;
    for (const token of [stream, orphan, foreign, 'not-a-token']) {
      await expect(call({ authorization: `Bearer ${token}`, conversationId: 'c1' })).rejects.toThrow(
        refusal(403, 'BadArgument', 'Invalid token or secret'),
      );
    }
  });

  it("checks Origin against the token's origins, and drops the CORS answer header on refusal", async () => {
    const { issuer, call, removed } = setup();
    const { token } = issuer.issueConversationToken(bot1, 'c1', { origins: ['https://a.example'] });
    const authorization = `Bearer ${token}`;
    expect((await call({ authorization, origin: 'https://a.example' })).allowed).toBe(true);
    expect((await call({ authorization })).allowed).toBe(true); // no Origin: not a browser's cross-origin call
    await expect(call({ authorization, origin: 'https://b.example' })).rejects.toThrow(
      refusal(403, 'BadArgument', 'Origin https://b.example is not a trusted origin'),
    );
    expect(removed).toEqual(['Access-Control-Allow-Origin']);
    // A token without origins may be used from any origin.
    const open = issuer.issueConversationToken(bot1, 'c1').token;
    expect((await call({ authorization: `Bearer ${open}`, origin: 'https://b.example' })).allowed).toBe(true);
  });

  it("under enhanced authentication: the bot's trusted origins, a dl_ user, and secrets only where exempt", async () => {
    const { issuer, call } = setup();
    const origin = 'https://chat.example.com';
    const good = issuer.issueConversationToken(bot2, 'c1', { userId: 'dl_123' }).token;
    expect((await call({ authorization: `Bearer ${good}`, origin })).allowed).toBe(true);
    await expect(call({ authorization: `Bearer ${good}`, origin: 'https://evil.example' })).rejects.toThrow(
      refusal(403, 'BadArgument'),
    );
    const plainUser = issuer.issueConversationToken(bot2, 'c1', { userId: 'u1' }).token;
    const noUser = issuer.issueConversationToken(bot2, 'c1').token;
    for (const authorization of [`Bearer ${plainUser}`, `Bearer ${noUser}`, `Bearer ${ENHANCED_SECRET}`]) {
      await expect(call({ authorization, origin })).rejects.toThrow(refusal(400, 'MissingProperty', /dl_/));
    }
    expect((await call({ authorization: `Bearer ${ENHANCED_SECRET}`, handler: 'generate' })).allowed).toBe(
      true,
    );
  });

  it('counts requests per credential: over the limit 429 TooManyRequests with Retry-After', async () => {
    const { issuer, call } = setup(2);
    const { token } = issuer.issueConversationToken(bot1, 'c1');
    await call({ authorization: `Bearer ${token}` });
    await call({ authorization: `Bearer ${token}` });
    const refused = call({ authorization: `Bearer ${token}` });
    await expect(refused).rejects.toThrow(refusal(429, 'TooManyRequests'));
    // Another credential has its own count.
    expect((await call({ authorization: `Bearer ${SECRET}` })).allowed).toBe(true);
  });
});
