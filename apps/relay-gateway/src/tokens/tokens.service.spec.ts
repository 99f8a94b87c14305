import { ENHANCED_AUTHENTICATION_REFUSAL } from '../direct-line/enhanced-authentication';
import { InProcessConversationStore } from '@fieldops/conversation-store';
import { createLogger } from '@fieldops/platform';
import { type BotConfig } from '@fieldops/platform-config';
import { type Credential } from '../direct-line/credentials';
import { type PlatformConfig } from '../direct-line/relay-settings';
import { TokenIssuer } from '../direct-line/token-issuer';
import { TokensService } from './tokens.service';

const plain = { id: 'bot-1', directLine: { secrets: [], trustedOrigins: [], tokenLifetimeSeconds: 1800 } };
const enhanced = {
  id: 'bot-2',
  directLine: {
    secrets: [],
    enhancedAuthentication: true,
    trustedOrigins: ['https://chat.example.com'],
    tokenLifetimeSeconds: 1800,
  },
};
const config = {
  bots: [plain, enhanced],
  relay: { tokenSigningKeys: ['k'.repeat(40)] },
} as unknown as PlatformConfig;
const secretOf = (bot: object): Credential => ({ kind: 'secret', bot: bot as BotConfig, key: 'secret:x' });
const refusal = (status: number, code: string, message: string) =>
  expect.objectContaining({ status, code, message }) as Error;

describe('TokensService', () => {
  const store = new InProcessConversationStore();
  const issuer = new TokenIssuer(config, createLogger({ service: 'test', level: 'silent' }));
  const service = new TokensService(store, issuer);
  afterAll(() => store.close());

  it('generate: a secret mints a token for a new, pre-allocated conversation carrying the user and origins', async () => {
    const body = { user: { id: 'u1', name: 'Ann' }, trustedOrigins: ['https://a.example/path'] };
    const answer = await service.generate(secretOf(plain), body);
    expect(answer).toEqual({
      conversationId: expect.any(String) as string,
      token: expect.any(String) as string,
      expires_in: 1800,
    });
    expect(await store.get(answer.conversationId)).toMatchObject({
      botId: 'bot-1',
      userId: 'u1',
      userName: 'Ann',
    });
    const { claims } = issuer.verify(answer.token);
    expect(claims).toMatchObject({
      bot: 'bot-1',
      conv: answer.conversationId,
      scope: 'conversation',
      user: 'u1',
    });
    expect(claims.origins).toEqual(['https://a.example']);
  });

  it("generate: homeConversation gives a token for the user's home conversation, the same each time; without it a new one", async () => {
    const home = await store.homeConversation({
      conversationId: 'home-of-u7',
      botId: 'bot-1',
      createdAt: Date.now(),
      userId: 'u7',
    });
    const body = { user: { id: 'u7' }, homeConversation: true };
    const [first, second] = [
      await service.generate(secretOf(plain), body),
      await service.generate(secretOf(plain), { User: { Id: 'u7' }, HomeConversation: true }),
    ];
    expect([first.conversationId, second.conversationId]).toEqual([home.conversationId, home.conversationId]);
    expect(issuer.verify(first.token).claims).toMatchObject({ conv: home.conversationId, user: 'u7' });
    // Each home token is an opening of its own (`join`), which its refreshes keep; a stock token has none.
    const joins = [first, second].map(({ token }) => issuer.verify(token).claims.join);
    expect(joins.every((join) => typeof join === 'string' && join !== '')).toBe(true);
    expect(joins[0]).not.toBe(joins[1]);
    const verified = issuer.verify(first.token);
    const refreshed = service.refresh({
      kind: 'token',
      bot: plain as unknown as BotConfig,
      conversationId: first.conversationId,
      token: first.token,
      userId: 'u7',
      origins: [],
      expiresAt: verified.expiresAt,
      join: verified.claims.join,
      key: 'token:x',
    });
    expect(issuer.verify(refreshed.token).claims.join).toBe(joins[0]);
    const ordinary = await service.generate(secretOf(plain), { user: { id: 'u7' } });
    expect(ordinary.conversationId).not.toBe(home.conversationId);
    expect(issuer.verify(ordinary.token).claims.join).toBeUndefined();
    // A user with no home conversation yet gets one, kept for the next token.
    const created = await service.generate(secretOf(plain), { user: { id: 'u8' }, homeConversation: true });
    expect(
      (await service.generate(secretOf(plain), { user: { id: 'u8' }, homeConversation: true }))
        .conversationId,
    ).toBe(created.conversationId);
    await expect(service.generate(secretOf(plain), { homeConversation: true })).rejects.toEqual(
      refusal(400, 'BadArgument', 'homeConversation needs user.id'),
    );
    await expect(
      service.generate(secretOf(plain), { user: { id: 'u7' }, homeConversation: 'yes' }),
    ).rejects.toEqual(refusal(400, 'BadArgument', 'homeConversation must be true or false'));
  });

  it('generate: a token cannot mint another token (403)', async () => {
    const { conversationId, token } = await service.generate(secretOf(plain), {});
    const credential: Credential = {
      ...issuer.verify(token),
      kind: 'token',
      bot: plain as unknown as BotConfig,
      conversationId,
      token,
      origins: [],
      key: 'token:x',
    };
    await expect(service.generate(credential, {})).rejects.toThrow(
      refusal(403, 'BadArgument', 'Cannot use a scoped token to generate a different scoped token'),
    );
  });

  it("generate under enhanced authentication: a dl_ user is required, and the bot's trusted origins bind the token", async () => {
    await expect(service.generate(secretOf(enhanced), {})).rejects.toThrow(
      refusal(400, 'MissingProperty', ENHANCED_AUTHENTICATION_REFUSAL),
    );
    await expect(service.generate(secretOf(enhanced), { user: { id: 'u1' } })).rejects.toThrow(
      refusal(400, 'MissingProperty', ENHANCED_AUTHENTICATION_REFUSAL),
    );
    const answer = await service.generate(secretOf(enhanced), {
      user: { id: 'dl_1' },
      trustedOrigins: ['https://elsewhere.example'],
    });
    expect(issuer.verify(answer.token).claims.origins).toEqual(['https://chat.example.com']);
  });

  it('generate: a lifetime given by the caller wins over the channel default', async () => {
    expect((await service.generate(secretOf(plain), {}, 60)).expires_in).toBe(60);
  });

  it('refresh: a token gets a new token for the same conversation, user and origins; a secret cannot refresh', async () => {
    const first = await service.generate(secretOf(plain), {
      user: { id: 'u1' },
      trustedOrigins: ['https://a.example'],
    });
    const { claims, expiresAt } = issuer.verify(first.token);
    const credential: Credential = {
      kind: 'token',
      bot: plain as unknown as BotConfig,
      conversationId: claims.conv,
      token: first.token,
      userId: claims.user,
      origins: claims.origins ?? [],
      expiresAt,
      key: 'token:x',
    };
    const renewed = service.refresh(credential);
    expect(renewed.conversationId).toBe(first.conversationId);
    expect(renewed.token).not.toBe(first.token);
    expect(issuer.verify(renewed.token).claims).toMatchObject({
      conv: first.conversationId,
      user: 'u1',
      origins: ['https://a.example'],
    });
    expect(() => service.refresh(secretOf(plain))).toThrow(
      refusal(403, 'BadArgument', 'This method can only be used to renew an existing conversation token'),
    );
  });
});
