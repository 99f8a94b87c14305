import { type Activity } from '@fieldops/contracts';
import { TokenIssuer } from '../src/direct-line/token-issuer';
import { ENHANCED_SECRET, type Fixture, SECOND_SECRET, SECRET, startFixture } from './support/relay-harness';

interface V1Message {
  id: string;
  conversationId: string;
  created: string;
  from: string;
  text?: string;
  channelData?: Record<string, unknown>;
  images: string[];
  attachments: Array<{ url: string; contentType: string }>;
  eTag?: string;
}

interface MessageSet {
  messages: V1Message[];
  watermark: string;
}

interface V1Conversation {
  conversationId: string;
  token: string;
  expires_in: number;
}

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

function headers(credential: string, scheme = 'Bearer'): Record<string, string> {
  return { Authorization: `${scheme} ${credential}`, 'Content-Type': 'application/json' };
}

const v1Error = (code: string, statusCode: number): unknown => ({
  error: { code, message: expect.any(String), statusCode },
});

describe('Direct Line 1.1 under /api over raw HTTP', () => {
  let fixture: Fixture;
  let api: string;

  beforeAll(async () => {
    fixture = await startFixture();
    api = `${fixture.relay.url}/api`;
  });
  afterAll(() => fixture.close());
  beforeEach(() => {
    fixture.bot.behaviour = () => ({});
  });

  async function tokenFor(secret = SECRET, scheme = 'Bearer'): Promise<string> {
    const response = await fetch(`${api}/tokens/conversation`, {
      method: 'POST',
      headers: headers(secret, scheme),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).toMatch(/^"[\w.-]+"$/);
    return JSON.parse(text) as string;
  }

  async function start(credential: string, scheme = 'Bearer'): Promise<V1Conversation> {
    const response = await fetch(`${api}/conversations`, {
      method: 'POST',
      headers: headers(credential, scheme),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as V1Conversation;
  }

  async function send(
    token: string,
    conversationId: string,
    message: unknown,
    scheme = 'Bearer',
  ): Promise<Response> {
    return fetch(`${api}/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: headers(token, scheme),
      body: JSON.stringify(message),
    });
  }

  async function messages(token: string, conversationId: string, watermark?: string): Promise<MessageSet> {
    const query = watermark === undefined ? '' : `?watermark=${watermark}`;
    const response = await fetch(`${api}/conversations/${conversationId}/messages${query}`, {
      headers: headers(token),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as MessageSet;
  }

  describe('tokens', () => {
    it('POST tokens/conversation: a secret gets a bare JSON string token, valid 30 minutes; the bot is not contacted', async () => {
      const token = await tokenFor();
      const claims = decodeClaims(token);
      expect(claims).toMatchObject({ bot: 'test-bot', scope: 'conversation', conv: expect.any(String) });
      expect((claims.exp as number) - (claims.nbf as number)).toBe(1800);
      expect(fixture.bot.messages(claims.conv as string)).toEqual([]);
    });

    it('GET tokens (swagger only) exchanges a secret for a bare-string token too, and refuses a token', async () => {
      const response = await fetch(`${api}/tokens`, { headers: headers(SECRET) });
      expect(response.status).toBe(200);
      const token = (await response.json()) as string;
      expect(decodeClaims(token)).toMatchObject({ bot: 'test-bot', scope: 'conversation' });
      const withToken = await fetch(`${api}/tokens`, { headers: headers(token) });
      expect(withToken.status).toBe(403);
      expect(await withToken.json()).toMatchObject({ error: { code: 'NotAllowed', statusCode: 403 } });
    });

    it('answers unknown 1.1 paths with the 1.1 NotFound body; 3.0 paths keep the 3.0 envelope', async () => {
      const unknown = await fetch(`${api}/nothing`, { headers: headers(SECRET) });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(v1Error('NotFound', 404));
      const v3 = await fetch(`${fixture.base}/nothing`, { headers: headers(SECRET) });
      expect(v3.status).toBe(404);
      expect(await v3.json()).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });
    });

    it('accepts the Bearer, Connector and BotConnector scheme words (any case) and both secrets', async () => {
      for (const scheme of ['Bearer', 'Connector', 'BotConnector', 'botconnector']) {
        expect(decodeClaims(await tokenFor(SECRET, scheme)).bot).toBe('test-bot');
      }
      expect(decodeClaims(await tokenFor(SECOND_SECRET, 'Connector')).bot).toBe('test-bot');
    });

    it('keeps the 1.1 scheme words off the 3.0 routes', async () => {
      const response = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: headers(SECRET, 'BotConnector'),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'BadArgument', message: expect.any(String) } });
    });

    it('renews by POST and by GET: a new bare-string token for the same conversation', async () => {
      const token = await tokenFor();
      const conversationId = decodeClaims(token).conv as string;
      const byPost = await fetch(`${api}/tokens/${conversationId}/renew`, {
        method: 'POST',
        headers: headers(token, 'BotConnector'),
      });
      expect(byPost.status).toBe(200);
      const renewed: unknown = await byPost.json();
      expect(typeof renewed).toBe('string');
      expect(renewed).not.toBe(token);
      const byGet = await fetch(`${api}/tokens/${conversationId}/renew`, {
        headers: headers(renewed as string, 'Connector'),
      });
      expect(byGet.status).toBe(200);
      const again = (await byGet.json()) as string;
      const claims = decodeClaims(again);
      expect(claims.conv).toBe(conversationId);
      expect((claims.exp as number) - (claims.nbf as number)).toBe(1800);
    });

    it('refuses renewing with a secret, for another conversation, or with an expired token; a token cannot mint one', async () => {
      const token = await tokenFor();
      const conversationId = decodeClaims(token).conv as string;
      const withSecret = await fetch(`${api}/tokens/${conversationId}/renew`, {
        method: 'POST',
        headers: headers(SECRET),
      });
      expect(withSecret.status).toBe(403);
      expect(await withSecret.json()).toEqual(v1Error('NotAllowed', 403));

      const otherConversation = await fetch(`${api}/tokens/someone-else/renew`, {
        method: 'POST',
        headers: headers(token),
      });
      expect(otherConversation.status).toBe(403);
      expect(await otherConversation.json()).toEqual(v1Error('NotAllowed', 403));

      const expired = fixture.relay.app
        .get(TokenIssuer)
        .issue({ bot: 'test-bot', site: 'test-bot', conv: conversationId, scope: 'conversation' }, -10).token;
      const renewExpired = await fetch(`${api}/tokens/${conversationId}/renew`, {
        headers: headers(expired),
      });
      expect(renewExpired.status).toBe(403);
      expect(await renewExpired.json()).toEqual({
        error: { code: 'NotAllowed', message: 'Token expired', statusCode: 403 },
      });

      const mint = await fetch(`${api}/tokens/conversation`, { method: 'POST', headers: headers(token) });
      expect(mint.status).toBe(403);
      expect(await mint.json()).toEqual(v1Error('NotAllowed', 403));
    });

    it('answers a missing, unknown or wrongly-schemed credential in the 1.1 error shape', async () => {
      const missing = await fetch(`${api}/tokens/conversation`, { method: 'POST' });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual(v1Error('NotAllowed', 401));
      const basic = await fetch(`${api}/tokens/conversation`, {
        method: 'POST',
        headers: headers(SECRET, 'Basic'),
      });
      expect(basic.status).toBe(401);
      const unknown = await fetch(`${api}/conversations`, {
        method: 'POST',
        headers: headers('not-a-secret'),
      });
      expect(unknown.status).toBe(403);
      expect(await unknown.json()).toEqual(v1Error('NotAllowed', 403));
    });

    it('keeps enhanced authentication: a dl_ user is required, and only its token starts a conversation', async () => {
      const withoutUser = await fetch(`${api}/tokens/conversation`, {
        method: 'POST',
        headers: headers(ENHANCED_SECRET),
      });
      expect(withoutUser.status).toBe(400);
      expect(await withoutUser.json()).toEqual(v1Error('MissingProperty', 400));
      const withUser = await fetch(`${api}/tokens/conversation`, {
        method: 'POST',
        headers: headers(ENHANCED_SECRET, 'Connector'),
        body: JSON.stringify({ user: { id: 'dl_dave' } }),
      });
      expect(withUser.status).toBe(200);
      const token = (await withUser.json()) as string;
      expect(decodeClaims(token)).toMatchObject({ bot: 'enhanced-bot', user: 'dl_dave' });
      expect((await start(token)).conversationId).toBe(decodeClaims(token).conv);
      const withSecret = await fetch(`${api}/conversations`, {
        method: 'POST',
        headers: headers(ENHANCED_SECRET),
      });
      expect(withSecret.status).toBe(400);
      expect(await withSecret.json()).toEqual(v1Error('MissingProperty', 400));
    });
  });

  describe('conversations and messages', () => {
    it('starts with a secret: 200 with conversationId and a 30-minute token (no streamUrl); the bot is told', async () => {
      const started = await start(SECRET, 'Connector');
      expect(started).toEqual({
        conversationId: expect.stringMatching(/^[\w-]{22}$/),
        token: expect.any(String),
        expires_in: 1800,
      });
      expect(decodeClaims(started.token).conv).toBe(started.conversationId);
      expect(fixture.bot.messages(started.conversationId).map((activity) => activity.type)).toEqual([
        'conversationUpdate',
      ]);
    });

    it("starts the token's conversation with its token: 200 twice, same conversation and token", async () => {
      const token = await tokenFor();
      const first = await start(token, 'BotConnector');
      expect(first.conversationId).toBe(decodeClaims(token).conv);
      expect(first.token).toBe(token);
      expect(first.expires_in).toBeGreaterThan(1790);
      const second = await start(token);
      expect(second.conversationId).toBe(first.conversationId);
      expect(
        fixture.bot
          .messages(first.conversationId)
          .filter((activity) => activity.type === 'conversationUpdate'),
      ).toHaveLength(1);
    });

    it('round trip: a 1.1 Message reaches the bot as a 3.0 activity (204, empty body); the reply is polled', async () => {
      const { conversationId, token } = await start(SECRET);
      const empty = await messages(token, conversationId);
      expect(empty).toEqual({ messages: [], watermark: '-1' });

      const response = await send(token, conversationId, {
        from: 'user1',
        text: 'hello',
        channelData: { clientTag: 7 },
        images: ['https://cdn.example.com/cat.png'],
        attachments: [{ url: 'https://cdn.example.com/report.pdf', contentType: 'application/pdf' }],
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');

      const delivered = fixture.bot
        .messages(conversationId)
        .filter((activity: Activity) => activity.type === 'message');
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({
        type: 'message',
        id: `${conversationId}|0000000`,
        channelId: 'directline',
        from: { id: 'user1' },
        recipient: { id: 'test-bot' },
        conversation: { id: conversationId },
        text: 'hello',
        channelData: { clientTag: 7 },
        attachments: [
          { contentType: 'image/png', contentUrl: 'https://cdn.example.com/cat.png' },
          { contentType: 'application/pdf', contentUrl: 'https://cdn.example.com/report.pdf' },
        ],
      });

      const set = await messages(token, conversationId);
      expect(set.watermark).toBe('1');
      expect(set.messages).toEqual([
        {
          id: `${conversationId}|0000000`,
          conversationId,
          created: delivered[0].timestamp,
          from: 'user1',
          text: 'hello',
          channelData: { clientTag: 7 },
          images: ['https://cdn.example.com/cat.png'],
          attachments: [{ url: 'https://cdn.example.com/report.pdf', contentType: 'application/pdf' }],
          eTag: `${conversationId}|0000000`,
        },
        {
          id: `${conversationId}|0000001`,
          conversationId,
          created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          from: 'test-bot',
          text: 'echo: hello',
          images: [],
          attachments: [],
          eTag: `${conversationId}|0000001`,
        },
      ]);
      // Timestamps have millisecond resolution, and the bot's answer can land in the user message's millisecond: the
      // order is the ids' sequence; the reply's time is never earlier.
      expect(Date.parse(set.messages[1].created)).toBeGreaterThanOrEqual(Date.parse(set.messages[0].created));
    });

    it('watermark: only what follows it, the same watermark when nothing is new, and no typing activities', async () => {
      const { conversationId, token } = await start(SECRET);
      expect((await send(token, conversationId, { from: 'u', text: 'one' })).status).toBe(204);
      const first = await messages(token, conversationId);
      expect(first.messages.map((message) => message.text)).toEqual(['one', 'echo: one']);

      const nothingNew = await messages(token, conversationId, first.watermark);
      expect(nothingNew).toEqual({ messages: [], watermark: first.watermark });

      // A typing activity takes a seq (the watermark moves on) but is not a 1.1 message.
      const typing = await fetch(`${fixture.base}/conversations/${conversationId}/activities`, {
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ type: 'typing', from: { id: 'u' } }),
      });
      expect(typing.status).toBe(200);
      expect((await send(token, conversationId, { from: 'u', text: 'two' })).status).toBe(204);
      const next = await messages(token, conversationId, first.watermark);
      expect(next.messages.map((message) => message.text)).toEqual(['two', 'echo: two']);
      expect(Number(next.watermark)).toBe(Number(first.watermark) + 3);

      const invalid = await fetch(`${api}/conversations/${conversationId}/messages?watermark=abc`, {
        headers: headers(token),
      });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual(v1Error('MalformedData', 400));
    });

    it('an embedded user id stands in for a missing from and replaces a different one', async () => {
      const generated = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: headers(SECRET),
        body: JSON.stringify({ user: { id: 'dl_carol' } }),
      });
      const { token, conversationId } = (await generated.json()) as V1Conversation;
      await start(token);
      expect((await send(token, conversationId, { text: 'no from' })).status).toBe(204);
      expect((await send(token, conversationId, { from: 'mallory', text: 'spoofed' })).status).toBe(204);
      const froms = fixture.bot
        .messages(conversationId)
        .filter((activity) => activity.type === 'message')
        .map((activity) => activity.from?.id);
      expect(froms).toEqual(['dl_carol', 'dl_carol']);
    });

    it('errors: malformed messages, unknown conversations, bot failures, other conversations', async () => {
      const { conversationId, token } = await start(SECRET);
      const noFrom = await send(token, conversationId, { text: 'who?' });
      expect(noFrom.status).toBe(400);
      expect(await noFrom.json()).toEqual(v1Error('MissingProperty', 400));

      const badChannelData = await send(token, conversationId, { from: 'u', channelData: 'text' });
      expect(badChannelData.status).toBe(400);
      expect(await badChannelData.json()).toEqual(v1Error('MalformedData', 400));

      const notObject = await send(token, conversationId, ['a']);
      expect(notObject.status).toBe(400);
      expect(await notObject.json()).toEqual(v1Error('MalformedData', 400));

      const tooBig = await send(token, conversationId, { from: 'u', text: 'x'.repeat(300_000) });
      expect(tooBig.status).toBe(413);
      expect(await tooBig.json()).toEqual(v1Error('InvalidRange', 413));

      const unknown = await send(SECRET, 'no-such-conversation', { from: 'u', text: 'hi' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(v1Error('NotFound', 404));
      const unknownPoll = await fetch(`${api}/conversations/no-such-conversation/messages`, {
        headers: headers(SECRET),
      });
      expect(unknownPoll.status).toBe(404);

      const other = await start(SECRET);
      const wrongConversation = await send(token, other.conversationId, { from: 'u', text: 'hi' });
      expect(wrongConversation.status).toBe(403);
      expect(await wrongConversation.json()).toEqual(v1Error('NotAllowed', 403));

      fixture.bot.behaviour = () => ({ status: 500, reply: false });
      const botFailed = await send(token, conversationId, { from: 'u', text: 'boom' });
      expect(botFailed.status).toBe(502);
      expect(await botFailed.json()).toEqual(v1Error('ServiceError', 502));
    });
  });

  it('answers the CORS preflight on the 1.1 routes too', async () => {
    const response = await fetch(`${api}/conversations/x/messages`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://somewhere.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect((response.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain(
      'authorization',
    );
  });

  describe('upload', () => {
    it('a single file: 204, the bot gets a downloadable attachment, polling shows it as an image', async () => {
      const { conversationId, token } = await start(SECRET);
      const response = await fetch(`${api}/conversations/${conversationId}/upload?userId=u9`, {
        method: 'POST',
        headers: {
          Authorization: `BotConnector ${token}`,
          'Content-Type': 'image/png',
          'Content-Disposition': 'attachment; filename="pic.png"',
        },
        body: Buffer.from([137, 80, 78, 71, 9]),
      });
      expect(response.status).toBe(204);
      const received = fixture.bot.messages(conversationId).filter((activity) => activity.type === 'message');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        from: { id: 'u9' },
        attachments: [{ contentType: 'image/png', name: 'pic.png' }],
      });
      const set = await messages(token, conversationId);
      expect(set.messages[0]).toMatchObject({ from: 'u9', attachments: [] });
      expect(set.messages[0].images).toHaveLength(1);
      const download = await fetch(set.messages[0].images[0]);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from([137, 80, 78, 71, 9]));
    });

    it('multipart with an application/vnd.microsoft.bot.message part holding a 1.1 Message', async () => {
      const { conversationId, token } = await start(SECRET);
      const form = new FormData();
      form.append(
        'message',
        new Blob([JSON.stringify({ from: 'ignored', text: 'see attached', channelData: { a: 1 } })], {
          type: 'application/vnd.microsoft.bot.message',
        }),
      );
      form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
      const response = await fetch(`${api}/conversations/${conversationId}/upload?userId=u10`, {
        method: 'POST',
        headers: { Authorization: `Connector ${token}` },
        body: form,
      });
      expect(response.status).toBe(204);
      const received = fixture.bot.messages(conversationId).filter((activity) => activity.type === 'message');
      expect(received[0]).toMatchObject({
        from: { id: 'u10' },
        text: 'see attached',
        channelData: { a: 1 },
        attachments: [{ contentType: 'text/plain', name: 'note.txt' }],
      });
      const set = await messages(token, conversationId);
      expect(set.messages[0]).toMatchObject({
        from: 'u10',
        text: 'see attached',
        images: [],
        attachments: [
          { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//), contentType: 'text/plain' },
        ],
      });
    });

    it('requires userId (400 MissingProperty) and a known conversation (404 NotFound)', async () => {
      const { conversationId, token } = await start(SECRET);
      const noUser = await fetch(`${api}/conversations/${conversationId}/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
        body: 'x',
      });
      expect(noUser.status).toBe(400);
      expect(await noUser.json()).toEqual(v1Error('MissingProperty', 400));
      const unknown = await fetch(`${api}/conversations/nope/upload?userId=u`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'text/plain' },
        body: 'x',
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(v1Error('NotFound', 404));
    });
  });
});
