import { type Activity } from '@fieldops/contracts';
import { TokenIssuer } from '../src/direct-line/token-issuer';
import {
  auth,
  ENHANCED_SECRET,
  type Fixture,
  SECOND_SECRET,
  SECRET,
  startFixture,
  startRelay,
  TRUSTED_ORIGIN,
  waitFor,
} from './support/relay-harness';
import { FrameCollector } from './support/ws-client';

interface TokenBody {
  conversationId: string;
  token: string;
  expires_in: number;
  streamUrl?: string;
}

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('Direct Line 3.0 over raw HTTP and WebSocket', () => {
  let fixture: Fixture;
  let base: string;

  beforeAll(async () => {
    fixture = await startFixture({ RELAY_RATE_LIMIT_PER_CONVERSATION: '20' });
    base = fixture.base;
  });
  afterAll(() => fixture.close());
  beforeEach(() => {
    fixture.bot.behaviour = () => ({});
  });

  async function generate(body?: unknown, secret = SECRET): Promise<TokenBody> {
    const response = await fetch(`${base}/tokens/generate`, {
      method: 'POST',
      headers: auth(secret),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as TokenBody;
  }

  async function start(token: string): Promise<{ status: number; body: TokenBody }> {
    const response = await fetch(`${base}/conversations`, {
      method: 'POST',
      headers: auth(token),
      body: '{"user":{}}',
    });
    return { status: response.status, body: (await response.json()) as TokenBody };
  }

  async function send(token: string, conversationId: string, activity: unknown): Promise<Response> {
    return fetch(`${base}/conversations/${conversationId}/activities`, {
      method: 'POST',
      headers: auth(token),
      body: JSON.stringify(activity),
    });
  }

  async function poll(
    token: string,
    conversationId: string,
    watermark = '',
  ): Promise<{ activities: Activity[]; watermark?: string }> {
    const response = await fetch(
      `${base}/conversations/${conversationId}/activities?watermark=${watermark}`,
      {
        headers: auth(token),
      },
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { activities: Activity[]; watermark?: string };
  }

  describe('tokens', () => {
    it('generates a signed, conversation-scoped JWT carrying the embedded user (PascalCase accepted)', async () => {
      const body = await generate({ User: { Id: 'dl_alice', Name: 'Alice' } });
      expect(body).toEqual({
        conversationId: expect.stringMatching(/^[\w-]{22}$/),
        token: expect.any(String),
        expires_in: 3600,
      });
      const claims = decodeClaims(body.token);
      expect(claims).toMatchObject({
        conv: body.conversationId,
        user: 'dl_alice',
        name: 'Alice',
        bot: 'test-bot',
      });
      expect((claims.exp as number) - (claims.nbf as number)).toBe(3600);
      expect(body.streamUrl).toBeUndefined();
      expect(fixture.bot.messages(body.conversationId)).toEqual([]);
    });

    it('accepts both secrets of a bot (rotation) and an empty body', async () => {
      expect((await generate(undefined, SECOND_SECRET)).token).toEqual(expect.any(String));
    });

    it('refreshes any number of times for the same conversation and user', async () => {
      const first = await generate({ user: { id: 'dl_bob' } });
      let token = first.token;
      for (let index = 0; index < 3; index += 1) {
        const response = await fetch(`${base}/tokens/refresh`, { method: 'POST', headers: auth(token) });
        expect(response.status).toBe(200);
        const refreshed = (await response.json()) as TokenBody;
        expect(refreshed.conversationId).toBe(first.conversationId);
        expect(refreshed.expires_in).toBe(3600);
        expect(decodeClaims(refreshed.token).user).toBe('dl_bob');
        token = refreshed.token;
      }
    });

    it('refuses a token that mints tokens, a secret that refreshes, and an expired token (403 TokenExpired)', async () => {
      const { token, conversationId } = await generate();
      const mint = await fetch(`${base}/tokens/generate`, { method: 'POST', headers: auth(token) });
      expect(mint.status).toBe(403);
      expect(await mint.json()).toEqual({ error: { code: 'BadArgument', message: expect.any(String) } });
      const refreshWithSecret = await fetch(`${base}/tokens/refresh`, {
        method: 'POST',
        headers: auth(SECRET),
      });
      expect(refreshWithSecret.status).toBe(403);

      const expired = fixture.relay.app
        .get(TokenIssuer)
        .issue({ bot: 'test-bot', site: 'test-bot', conv: conversationId, scope: 'conversation' }, -10).token;
      const refresh = await fetch(`${base}/tokens/refresh`, { method: 'POST', headers: auth(expired) });
      expect(refresh.status).toBe(403);
      expect(await refresh.json()).toEqual({ error: { code: 'TokenExpired', message: expect.any(String) } });
    });

    it('answers 401 without credentials and 403 for a forged token', async () => {
      const missing = await fetch(`${base}/tokens/generate`, { method: 'POST' });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual({
        error: { code: 'BadArgument', message: 'Missing token or secret' },
      });
      const forged = await fetch(`${base}/conversations`, { method: 'POST', headers: auth('not-a-secret') });
      expect(forged.status).toBe(403);
    });
  });

  describe('conversations', () => {
    it('starts with 201, then 200 for the same token, with an absolute ws:// streamUrl on both prefixes', async () => {
      const { token, conversationId } = await generate({ user: { id: 'dl_carol', name: 'Carol' } });
      const first = await start(token);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ conversationId, token, expires_in: expect.any(Number) });
      expect(first.body.streamUrl).toMatch(
        new RegExp(
          `^ws://127\\.0\\.0\\.1:\\d+/v3/directline/conversations/${conversationId}/stream\\?watermark=-&t=`,
        ),
      );
      const again = await fetch(`${fixture.relay.url}/v3/relay/conversations`, {
        method: 'POST',
        headers: auth(token),
      });
      expect(again.status).toBe(200);
      expect(((await again.json()) as TokenBody).streamUrl).toContain('/v3/relay/conversations/');
      // With the user known at start, the bot got one conversationUpdate with both members.
      const updates = fixture.bot.messages(conversationId);
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({
        type: 'conversationUpdate',
        channelId: 'directline',
        from: { id: 'dl_carol' },
        membersAdded: [{ id: 'test-bot' }, { id: 'dl_carol', name: 'Carol' }],
      });
    });

    it("a pre-allocated conversation's conversationUpdate carries the locale of the start body", async () => {
      const { token, conversationId } = await generate({ user: { id: 'dl_wang', name: 'Wang' } });
      const started = await fetch(`${base}/conversations`, {
        method: 'POST',
        headers: auth(token),
        body: JSON.stringify({ locale: 'zh-CN' }),
      });
      expect(started.status).toBe(201);
      const [update] = await waitFor(() => {
        const updates = fixture.bot.messages(conversationId);
        return updates.length > 0 ? updates : undefined;
      }, 'the conversationUpdate');
      expect(update).toMatchObject({ type: 'conversationUpdate', locale: 'zh-CN', from: { id: 'dl_wang' } });
    });

    it('with a secret starts a new conversation each time and returns a conversation token', async () => {
      const a = await start(SECRET);
      const b = await start(SECRET);
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(a.body.conversationId).not.toBe(b.body.conversationId);
      expect(decodeClaims(a.body.token).conv).toBe(a.body.conversationId);
    });

    it('without a user announces the bot at start and the user just before the first message', async () => {
      const { body } = await start(SECRET);
      const id = body.conversationId;
      expect(fixture.bot.messages(id).map((activity) => activity.membersAdded)).toEqual([
        [{ id: 'test-bot', name: 'Test bot', role: 'bot' }],
      ]);
      expect((await send(body.token, id, { type: 'message', from: { id: 'u1' }, text: 'hi' })).status).toBe(
        200,
      );
      expect(
        (await send(body.token, id, { type: 'message', from: { id: 'u1' }, text: 'again' })).status,
      ).toBe(200);
      expect(fixture.bot.messages(id).map((activity) => activity.type)).toEqual([
        'conversationUpdate',
        'conversationUpdate',
        'message',
        'message',
      ]);
      expect(fixture.bot.messages(id)[1]?.membersAdded).toEqual([{ id: 'u1', role: 'user' }]);
    });

    it('reconnects with a fresh streamUrl carrying the watermark; 404 for an unknown conversation', async () => {
      const { body } = await start(SECRET);
      const response = await fetch(`${base}/conversations/${body.conversationId}?watermark=4`, {
        headers: auth(body.token),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as TokenBody).streamUrl).toContain('?watermark=4&t=');
      const unknown = await fetch(`${base}/conversations/nope?watermark=`, { headers: auth(SECRET) });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });
    });

    it('refuses a token of conversation A on conversation B (403)', async () => {
      const a = await generate();
      const b = await generate();
      const response = await send(a.token, b.conversationId, { type: 'message', from: { id: 'x' } });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /not valid for this conversation/,
      );
    });
  });

  describe('activities', () => {
    it('stamps, echoes before the reply, overrides from.id with the embedded user, and passes channelData through', async () => {
      const { token, conversationId } = await generate({ user: { id: 'dl_dave' } });
      await start(token);
      const response = await send(token, conversationId, {
        type: 'message',
        id: 'client-id',
        from: { id: 'spoofed', name: 'Dave' },
        text: 'hello',
        channelData: { clientActivityID: 'c-1', nested: { a: [1, 2] } },
        customField: 42,
      });
      expect(response.status).toBe(200);
      const { id } = (await response.json()) as { id: string };
      expect(id).toBe(`${conversationId}|0000000`);
      expect(response.headers.get('server-timing')).toMatch(/^relay;dur=\d/);

      const set = await poll(token, conversationId);
      expect(set.watermark).toBe('1');
      expect(set.activities.map((activity) => activity.id)).toEqual([id, `${conversationId}|0000001`]);
      const [echo, reply] = set.activities;
      expect(echo).toMatchObject({
        type: 'message',
        id,
        channelId: 'directline',
        from: { id: 'dl_dave', name: 'Dave' },
        conversation: { id: conversationId },
        recipient: { id: 'test-bot' },
        serviceUrl: 'http://localhost:8020/',
        channelData: { clientActivityID: 'c-1', nested: { a: [1, 2] } },
        customField: 42,
      });
      expect(reply).toMatchObject({ text: 'echo: hello', replyToId: id, from: { id: 'test-bot' } });
      expect(reply.timestamp! > echo.timestamp!).toBe(true);
      // What the bot received is the echo itself.
      expect(fixture.bot.messages(conversationId).find((activity) => activity.type === 'message')).toEqual(
        echo,
      );
      expect(await poll(token, conversationId, '1')).toEqual({ activities: [], watermark: '1' });
    });

    it('leaves typing out of polling but advances the watermark past it', async () => {
      const { body } = await start(SECRET);
      fixture.bot.behaviour = () => ({ reply: false });
      await send(body.token, body.conversationId, { type: 'typing', from: { id: 'u' } });
      await send(body.token, body.conversationId, { type: 'custom-kind', from: { id: 'u' } });
      const set = await poll(body.token, body.conversationId);
      expect(set.activities.map((activity) => activity.type)).toEqual(['custom-kind']);
      expect(set.watermark).toBe('1');
    });

    it('answers 502 BotError with the bot status, and 504 when the bot is too slow', async () => {
      const { body } = await start(SECRET);
      fixture.bot.behaviour = () => ({ status: 500, reply: false });
      const failed = await send(body.token, body.conversationId, { type: 'message', from: { id: 'u' } });
      expect(failed.status).toBe(502);
      expect(await failed.json()).toEqual({
        error: { code: 'BotError', message: expect.any(String) },
        httpStatusCode: 500,
      });
      fixture.bot.behaviour = () => ({ delayMs: 2_000, reply: false });
      const slow = await send(body.token, body.conversationId, { type: 'message', from: { id: 'u' } });
      expect(slow.status).toBe(504);
      expect(await slow.json()).toMatchObject({ error: { code: 'BotError' }, httpStatusCode: 504 });
      // Both echoes are in the log regardless (appended before delivery).
      expect((await poll(body.token, body.conversationId)).activities).toHaveLength(2);
    });

    it("answers an invoke with the bot's invoke response: its status and body (the id when it sent none)", async () => {
      const { body } = await start(SECRET);
      fixture.bot.behaviour = (activity) =>
        activity.type === 'invoke' && activity.name === 'lookup'
          ? { status: 200, body: { status: 200, value: { found: true } }, reply: false }
          : { status: 501, reply: false };
      const answered = await send(body.token, body.conversationId, {
        type: 'invoke',
        name: 'lookup',
        value: { code: 'P-1' },
        from: { id: 'u' },
      });
      expect(answered.status).toBe(200);
      expect(await answered.json()).toEqual({ status: 200, value: { found: true } });
      const unhandled = await send(body.token, body.conversationId, {
        type: 'invoke',
        name: 'other',
        from: { id: 'u' },
      });
      expect(unhandled.status).toBe(501);
      expect(await unhandled.json()).toEqual({ id: expect.stringMatching(/\|0000001$/) });
    });

    it('validates: 400 MissingProperty, 400 BadSyntax, 413 MessageSizeTooBig, 404 unknown conversation', async () => {
      const { body } = await start(SECRET);
      const missing = await send(body.token, body.conversationId, { text: 'no type', from: { id: 'u' } });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('MissingProperty');
      const noFrom = await send(body.token, body.conversationId, { type: 'message' });
      expect(noFrom.status).toBe(400);
      const bad = await fetch(`${base}/conversations/${body.conversationId}/activities`, {
        method: 'POST',
        headers: auth(body.token),
        body: '{not json',
      });
      expect(bad.status).toBe(400);
      const malformed = await fetch(`${base}/conversations/${body.conversationId}/activities`, {
        method: 'POST',
        headers: { ...auth(body.token), 'Content-Type': 'application/json' },
        body: '{"type":',
      });
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('BadSyntax');
      const big = await send(body.token, body.conversationId, {
        type: 'message',
        from: { id: 'u' },
        text: 'x'.repeat(300_000),
      });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
      // Past the JSON parser's own limit too.
      const huge = await send(body.token, body.conversationId, {
        type: 'message',
        from: { id: 'u' },
        text: 'x'.repeat(3_000_000),
      });
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
      const unknown = await send(SECRET, 'unknown-conversation', { type: 'message', from: { id: 'u' } });
      expect(unknown.status).toBe(404);
    });

    it('limits sends per conversation with 429 and Retry-After', async () => {
      const { body } = await start(SECRET);
      fixture.bot.behaviour = () => ({ reply: false });
      let response: Response | undefined;
      for (let index = 0; index < 21; index += 1) {
        response = await send(body.token, body.conversationId, { type: 'message', from: { id: 'u' } });
      }
      expect(response?.status).toBe(429);
      expect(Number(response?.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await response!.json()) as { error: { code: string } }).error.code).toBe('TooManyRequests');
    });
  });

  describe('WebSocket stream', () => {
    it('replays from the streamUrl watermark, then goes live to every socket, with no gap and no duplicate', async () => {
      const { body } = await start(SECRET);
      const id = body.conversationId;
      await send(body.token, id, { type: 'message', from: { id: 'u' }, text: 'before' });
      const first = await FrameCollector.open(body.streamUrl!);
      const reconnect = (await (
        await fetch(`${base}/conversations/${id}?watermark=0`, { headers: auth(body.token) })
      ).json()) as TokenBody;
      const second = await FrameCollector.open(reconnect.streamUrl!);
      try {
        await waitFor(() => first.activityIds().length === 2 && second.activityIds().length === 1, 'replay');
        // One activity per frame, the replay included (DirectLineJS keeps the order of frames, not within one).
        expect(first.frames.slice(0, 2).map((frame) => frame.watermark)).toEqual(['0', '1']);
        await send(body.token, id, { type: 'typing', from: { id: 'u' } });
        await send(body.token, id, { type: 'message', from: { id: 'u' }, text: 'after' });
        const expected = [0, 1, 2, 3, 4].map((seq) => `${id}|000000${seq}`);
        await waitFor(() => first.activityIds().length === 5, 'live activities on the first socket');
        await waitFor(() => second.activityIds().length === 4, 'live activities on the second socket');
        expect(first.activityIds()).toEqual(expected);
        expect(second.activityIds()).toEqual(expected.slice(1));
        expect(first.frames.at(-1)?.watermark).toBe('4');
        expect(first.frames.every((frame) => frame.activities.length === 1)).toBe(true);
      } finally {
        first.close();
        second.close();
      }
    });

    it('refuses a stream without a valid stream token for the conversation', async () => {
      const { body } = await start(SECRET);
      const url = new URL(body.streamUrl!);
      url.searchParams.set('t', body.token);
      await expect(FrameCollector.open(url.toString())).rejects.toThrow(/403/);
      const other = await start(SECRET);
      const foreign = body.streamUrl!.replace(body.conversationId, other.body.conversationId);
      await expect(FrameCollector.open(foreign)).rejects.toThrow(/403/);
    });
  });

  describe('CORS and misc', () => {
    it('answers the preflight with the headers stock clients send', async () => {
      const response = await fetch(`${base}/conversations`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://somewhere.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,x-ms-bot-agent,x-requested-with',
        },
      });
      expect(response.status).toBeLessThan(300);
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of [
        'authorization',
        'content-type',
        'accept',
        'x-requested-with',
        'x-ms-bot-agent',
      ]) {
        expect(allowed).toContain(header);
      }
      expect(response.headers.get('access-control-allow-origin')).toBe('https://somewhere.example');
    });

    it('getsessionid names the browser with an HttpOnly cookie and answers its value; the same browser keeps it', async () => {
      const response = await fetch(`${base}/session/getsessionid`, { headers: auth(SECRET) });
      const { sessionId } = (await response.json()) as { sessionId: string };
      expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = response.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(new RegExp(`^fieldops_directline_session=${sessionId};`));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const again = await fetch(`${base}/session/getsessionid`, {
        headers: { ...auth(SECRET), Cookie: `fieldops_directline_session=${sessionId}` },
      });
      expect(await again.json()).toEqual({ sessionId });
      // A malformed cookie is replaced, never echoed.
      const forged = await fetch(`${base}/session/getsessionid`, {
        headers: { ...auth(SECRET), Cookie: 'fieldops_directline_session=<script>' },
      });
      expect(((await forged.json()) as { sessionId: string }).sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await fetch(`${base}/session/getsessionid`)).status).toBe(401);
    });
  });

  describe('enhanced authentication', () => {
    it('requires a dl_ user id, a trusted origin and a token with that user', async () => {
      const noUser = await fetch(`${base}/tokens/generate`, {
        method: 'POST',
        headers: auth(ENHANCED_SECRET),
      });
      expect(noUser.status).toBe(400);
      expect(((await noUser.json()) as { error: { code: string } }).error.code).toBe('MissingProperty');
      const badUser = await fetch(`${base}/tokens/generate`, {
        method: 'POST',
        headers: auth(ENHANCED_SECRET),
        body: JSON.stringify({ user: { id: 'alice' } }),
      });
      expect(badUser.status).toBe(400);
      const secretStart = await fetch(`${base}/conversations`, {
        method: 'POST',
        headers: auth(ENHANCED_SECRET),
      });
      expect(secretStart.status).toBe(400);
      expect(((await secretStart.json()) as { error: { code: string } }).error.code).toBe('MissingProperty');

      const good = await generate(
        { user: { id: 'dl_erin' }, trustedOrigins: ['https://ignored.example'] },
        ENHANCED_SECRET,
      );
      const untrusted = await fetch(`${base}/conversations`, {
        method: 'POST',
        headers: auth(good.token, { Origin: 'https://evil.example' }),
      });
      expect(untrusted.status).toBe(403);
      const trusted = await fetch(`${base}/conversations`, {
        method: 'POST',
        headers: auth(good.token, { Origin: TRUSTED_ORIGIN }),
      });
      expect(trusted.status).toBe(201);
    });
  });
});

describe(
  process.env.REDIS_URL
    ? 'two relay instances on one Redis'
    : 'two relay instances on one Redis (set REDIS_URL to run)',
  () => {
    it('delivers an activity posted on instance A to a socket on instance B', async () => {
      const fixture = await startFixture();
      const other = await startRelay(fixture.configPath);
      try {
        const started = (await (
          await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
        ).json()) as TokenBody;
        const reconnect = (await (
          await fetch(`${other.url}/v3/directline/conversations/${started.conversationId}?watermark=`, {
            headers: auth(started.token),
          })
        ).json()) as TokenBody;
        expect(reconnect.streamUrl).toContain(`:${other.port}/`);
        const socket = await FrameCollector.open(reconnect.streamUrl!);
        try {
          const response = await fetch(`${fixture.base}/conversations/${started.conversationId}/activities`, {
            method: 'POST',
            headers: auth(started.token),
            body: JSON.stringify({ type: 'message', from: { id: 'u' }, text: 'across' }),
          });
          expect(response.status).toBe(200);
          await waitFor(() => socket.activityIds().length === 2, 'echo and reply on instance B');
          expect(socket.frames.flatMap((frame) => frame.activities.map((activity) => activity.text))).toEqual(
            ['across', 'echo: across'],
          );
        } finally {
          socket.close();
        }
      } finally {
        await other.close();
        await fixture.close();
      }
    });
  },
);
