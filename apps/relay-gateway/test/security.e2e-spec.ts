import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startRelayGateway } from '../src';
import { request as httpRequest } from 'node:http';
import { type Activity } from '@fieldops/contracts';
import { capturingLogger, chunkedUpload, slowHeaders, trickleRequest } from '@fieldops/testing';
import { CONVERSATION_STORE, InProcessConversationStore } from '@fieldops/conversation-store';
import {
  auth,
  ENHANCED_SECRET,
  type Fixture,
  type RelayGateway,
  SECRET,
  startFixture,
  startRelay,
  TRUSTED_ORIGIN,
  waitFor,
} from './support/relay-harness';

interface Started {
  conversationId: string;
  token: string;
}

async function startConversation(base: string, credential = SECRET): Promise<Started> {
  const response = await fetch(`${base}/conversations`, { method: 'POST', headers: auth(credential) });
  return (await response.json()) as Started;
}

/** A multipart upload of `files` (name → bytes) as DirectLineJS sends it. */
async function uploadFiles(
  base: string,
  conversationId: string,
  credential: string,
  files: Array<[string, Buffer | string]>,
): Promise<Response> {
  const form = new FormData();
  form.append(
    'activity',
    new Blob([JSON.stringify({ type: 'message', from: { id: 'u1' }, text: 'files' })], {
      type: 'application/vnd.microsoft.activity',
    }),
    'blob',
  );
  for (const [name, data] of files) form.append('file', new Blob([data], { type: 'text/plain' }), name);
  return fetch(`${base}/conversations/${conversationId}/upload?userId=u1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}` },
    body: form,
  });
}

/** The status of a WebSocket handshake on `streamUrl` (101 when upgraded; the socket is closed at once). */
function upgradeStatus(streamUrl: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const handshake = httpRequest(new URL(streamUrl.replace(/^ws/, 'http')), {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        ...(origin ? { Origin: origin } : {}),
      },
    });
    handshake.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    handshake.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    handshake.once('error', reject);
    handshake.end();
  });
}

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; retryAfter: string | null }> {
  const body = (await response.json()) as { error: { code: string } };
  return { status: response.status, code: body.error.code, retryAfter: response.headers.get('retry-after') };
}

function inProcessStore(relay: RelayGateway): InProcessConversationStore {
  const store = relay.app.get<unknown>(CONVERSATION_STORE);
  if (!(store instanceof InProcessConversationStore)) throw new Error('expected the in-process store');
  return store;
}

/** Probes of the outside security review (issue 15), replayed against relay-gateway so none can come back. */
describe('relay-gateway security', () => {
  let fixture: Fixture;

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => fixture.close());

  const start = (): Promise<Started> => startConversation(fixture.base);

  /** Uploads one file as a single-file body and resolves the contentUrl the bot received. */
  async function uploadedUrl(contentType: string, name: string, content: string | Buffer): Promise<string> {
    const { conversationId, token } = await start();
    const response = await fetch(`${fixture.base}/conversations/${conversationId}/upload?userId=u1`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': contentType,
        'Content-Disposition': `attachment; name="file"; filename="${name}"`,
      },
      body: content,
    });
    expect(response.status).toBe(200);
    const received: Activity = await waitFor(
      () => fixture.bot.messages(conversationId).find((activity) => activity.type === 'message'),
      'the upload at the bot',
    );
    return received.attachments![0].contentUrl!;
  }

  describe('finding 1: uploads never run as pages of the relay origin', () => {
    it.each([
      ['text/html', 'evil.html', '<script>alert(document.domain)</script>'],
      [
        'image/svg+xml',
        'evil.svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ],
      ['application/octet-stream', 'evil.htm', '<script>alert(1)</script>'],
    ])('%s comes back as a sandboxed, nosniff download', async (type, name, content) => {
      const download = await fetch(await uploadedUrl(type, name, content));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(type);
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(download.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(download.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="?${name.replace('.', '\\.')}"?$`),
      );
      expect(await download.text()).toBe(content);
    });

    it.each([
      ['image/png', 'a.png'],
      ['image/jpeg', 'a.jpg'],
      ['image/gif', 'a.gif'],
      ['image/webp', 'a.webp'],
    ])('an inert image (%s) stays inline, still nosniff and sandboxed', async (type, name) => {
      const download = await fetch(await uploadedUrl(type, name, Buffer.from([1, 2, 3])));
      expect(download.headers.get('content-type')).toBe(type);
      expect(download.headers.get('content-disposition')).toBe('inline');
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(download.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    });

    it('a malformed declared type is served as application/octet-stream', async () => {
      const download = await fetch(await uploadedUrl('text/html x', 'odd.bin', 'x'));
      expect(download.headers.get('content-type')).toBe('application/octet-stream');
      expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
    });
  });

  describe('finding 2: uploads cannot fill the memory', () => {
    let quota: Fixture;
    beforeAll(async () => {
      quota = await startFixture({
        REDIS_URL: undefined, // the in-process store, whose held bytes the probes read
        RELAY_MAX_UPLOAD_FILES: '4',
        RELAY_UPLOAD_FILES_PER_CONVERSATION: '3',
        RELAY_UPLOAD_BYTES_PER_CONVERSATION: '3000',
        RELAY_UPLOAD_FILES_PER_TOKEN: '5',
        RELAY_UPLOAD_BYTES_PER_TOKEN: '100000',
        RELAY_RATE_LIMIT_PER_CONVERSATION: '4',
      });
    });
    afterAll(() => quota.close());

    it('1,000 file parts in one request are refused with 413 and nothing is stored', async () => {
      const { conversationId, token } = await startConversation(quota.base);
      const before = inProcessStore(quota.relay).storedUploadBytes;
      const files = Array.from({ length: 1000 }, (_, index): [string, string] => [`f${index}.txt`, 'x']);
      expect(await errorOf(await uploadFiles(quota.base, conversationId, token, files))).toMatchObject({
        status: 413,
        code: 'MessageSizeTooBig',
      });
      expect(inProcessStore(quota.relay).storedUploadBytes).toBe(before);
    });

    it('files per conversation per window: over the quota is 429 TooManyRequests with Retry-After', async () => {
      const { conversationId, token } = await startConversation(quota.base);
      for (let upload = 0; upload < 3; upload += 1)
        expect((await uploadFiles(quota.base, conversationId, token, [['a.txt', 'a']])).status).toBe(200);
      const refused = await errorOf(await uploadFiles(quota.base, conversationId, token, [['a.txt', 'a']]));
      expect(refused).toMatchObject({ status: 429, code: 'TooManyRequests' });
      expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    });

    it('bytes per conversation per window: 429 when used up, 413 for one upload larger than the quota', async () => {
      const { conversationId, token } = await startConversation(quota.base);
      expect(
        await errorOf(await uploadFiles(quota.base, conversationId, token, [['big.txt', 'x'.repeat(3001)]])),
      ).toMatchObject({ status: 413, code: 'MessageSizeTooBig' });
      expect(
        (await uploadFiles(quota.base, conversationId, token, [['a.txt', 'x'.repeat(2000)]])).status,
      ).toBe(200);
      const before = inProcessStore(quota.relay).storedUploadBytes;
      expect(
        await errorOf(await uploadFiles(quota.base, conversationId, token, [['b.txt', 'x'.repeat(2000)]])),
      ).toMatchObject({ status: 429, code: 'TooManyRequests' });
      expect(inProcessStore(quota.relay).storedUploadBytes).toBe(before);
    });

    it('files per token (a secret spans conversations): 429 once its quota is used up', async () => {
      const conversations = await Promise.all([1, 2, 3].map(() => startConversation(quota.base)));
      const outcomes: number[] = [];
      for (const { conversationId } of conversations)
        for (let upload = 0; upload < 2; upload += 1)
          outcomes.push((await uploadFiles(quota.base, conversationId, SECRET, [['a.txt', 'a']])).status);
      expect(outcomes).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('no stored bytes for a send that is refused after the files were read', async () => {
      const { conversationId, token } = await startConversation(quota.base);
      for (let send = 0; send < 4; send += 1) {
        const sent = await fetch(`${quota.base}/conversations/${conversationId}/activities`, {
          method: 'POST',
          headers: auth(token),
          body: JSON.stringify({ type: 'message', from: { id: 'u1' }, text: `m${send}` }),
        });
        expect(sent.status).toBe(200);
      }
      const before = inProcessStore(quota.relay).storedUploadBytes;
      expect(
        await errorOf(await uploadFiles(quota.base, conversationId, token, [['a.txt', 'x'.repeat(500)]])),
      ).toMatchObject({ status: 429, code: 'TooManyRequests' });
      expect(inProcessStore(quota.relay).storedUploadBytes).toBe(before);
    });
  });

  describe('finding 2: the in-process store holds at most STORE_MAX_UPLOAD_BYTES of uploads', () => {
    let capped: Fixture;
    beforeAll(async () => {
      capped = await startFixture({ REDIS_URL: undefined, STORE_MAX_UPLOAD_BYTES: '1048576' });
    });
    afterAll(() => capped.close());

    it('drops the oldest uploads first and refuses one larger than the whole capacity', async () => {
      const store = inProcessStore(capped.relay);
      const chunk = Buffer.alloc(400_000, 'x').toString();
      const first = await startConversation(capped.base);
      for (let upload = 0; upload < 4; upload += 1) {
        const { conversationId, token } = upload === 0 ? first : await startConversation(capped.base);
        expect((await uploadFiles(capped.base, conversationId, token, [['a.txt', chunk]])).status).toBe(200);
        expect(store.storedUploadBytes).toBeLessThanOrEqual(1_048_576);
      }
      const oldest = capped.bot
        .messages(first.conversationId)
        .find((activity) => activity.type === 'message');
      expect((await fetch(oldest!.attachments![0].contentUrl!)).status).toBe(404);
      const { conversationId, token } = await startConversation(capped.base);
      const tooBig = await uploadFiles(capped.base, conversationId, token, [
        ['big.txt', 'x'.repeat(1_100_000)],
      ]);
      expect(await errorOf(tooBig)).toMatchObject({ status: 413, code: 'MessageSizeTooBig' });
    });
  });

  describe(
    // The e2e tier always has a Redis: REDIS_URL, or the redis-server jest.services.js starts for the run.
    'finding 2: quotas are shared by every relay instance on Redis',
    () => {
      let first: Fixture;
      let second: RelayGateway;
      beforeAll(async () => {
        const quotas = { RELAY_UPLOAD_FILES_PER_CONVERSATION: '2' };
        first = await startFixture(quotas);
        second = await startRelay(first.configPath, quotas);
      });
      afterAll(async () => {
        await second.close();
        await first.close();
      });

      it('counts uploads through both instances together', async () => {
        const { conversationId, token } = await startConversation(first.base);
        const otherBase = `${second.url}/v3/directline`;
        expect((await uploadFiles(first.base, conversationId, token, [['a.txt', 'a']])).status).toBe(200);
        expect((await uploadFiles(otherBase, conversationId, token, [['a.txt', 'a']])).status).toBe(200);
        expect(
          await errorOf(await uploadFiles(first.base, conversationId, token, [['a.txt', 'a']])),
        ).toMatchObject({
          status: 429,
          code: 'TooManyRequests',
        });
      });
    },
  );
});

describe('security review: relay-gateway', () => {
  let fixture: Fixture;
  let lines: string[];

  beforeAll(async () => {
    const captured = capturingLogger('relay-gateway');
    lines = captured.lines;
    fixture = await startFixture({ HTTP_HEADERS_TIMEOUT_MS: '1000' }, captured.logger);
  });
  afterAll(() => fixture.close());

  describe('finding 7: CORS', () => {
    it('never allows credentials (auth is bearer-only)', async () => {
      const preflight = await fetch(`${fixture.base}/conversations`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://any.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const answer = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: auth(SECRET, { Origin: 'https://any.example' }),
      });
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('never allows credentials on any route, preflight or answer, Direct Line 3.0 and 1.1', async () => {
      const { conversationId, token } = await startConversation(fixture.base);
      const origin = { Origin: 'https://any.example' };
      const routes = [
        `${fixture.base}/conversations/${conversationId}/activities`,
        `${fixture.base}/conversations/${conversationId}/upload?userId=u1`,
        `${fixture.base}/tokens/refresh`,
        `${fixture.base}/session/getsessionid`,
        `${fixture.relay.url}/api/conversations`,
        `${fixture.relay.url}/v3/directline`,
      ];
      for (const url of routes) {
        const preflight = await fetch(url, {
          method: 'OPTIONS',
          headers: {
            ...origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'authorization',
          },
        });
        const answer = await fetch(url, { headers: auth(token, origin) });
        expect({ url, preflight: preflight.headers.get('access-control-allow-credentials') }).toEqual({
          url,
          preflight: null,
        });
        expect({ url, answer: answer.headers.get('access-control-allow-credentials') }).toEqual({
          url,
          answer: null,
        });
      }
    });

    it("answers a bot's trusted origins only: another origin gets its 403 without Access-Control-Allow-Origin", async () => {
      const body = JSON.stringify({ user: { id: 'dl_cors-user' } });
      const generate = (origin: string): Promise<Response> =>
        fetch(`${fixture.base}/tokens/generate`, {
          method: 'POST',
          headers: auth(ENHANCED_SECRET, { Origin: origin, 'Content-Type': 'application/json' }),
          body,
        });
      const trusted = await generate(TRUSTED_ORIGIN);
      expect(trusted.status).toBe(200);
      expect(trusted.headers.get('access-control-allow-origin')).toBe(TRUSTED_ORIGIN);
      const { token } = (await trusted.json()) as { token: string };

      const other = await generate('https://evil.example');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();

      // The conversation routes too, with the token of the trusted page.
      const started = await fetch(`${fixture.base}/conversations`, {
        method: 'POST',
        headers: auth(token, { Origin: 'https://evil.example' }),
      });
      expect(started.status).toBe(403);
      expect(started.headers.get('access-control-allow-origin')).toBeNull();
      const fromTrusted = await fetch(`${fixture.base}/conversations`, {
        method: 'POST',
        headers: auth(token, { Origin: TRUSTED_ORIGIN }),
      });
      expect(fromTrusted.status).toBe(201);
      expect(fromTrusted.headers.get('access-control-allow-origin')).toBe(TRUSTED_ORIGIN);
    });

    it('binds a token generated with trustedOrigins to them; a bot without trusted origins answers any origin', async () => {
      const generated = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: auth(SECRET, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ trustedOrigins: ['https://app.example'] }),
      });
      const { conversationId, token } = (await generated.json()) as Started;
      const activities = (origin: string): Promise<Response> =>
        fetch(`${fixture.base}/conversations/${conversationId}/activities`, {
          headers: auth(token, { Origin: origin }),
        });
      const other = await activities('https://other.example');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // The send route too (served before the router, guards included).
      const send = await fetch(`${fixture.base}/conversations/${conversationId}/activities`, {
        method: 'POST',
        headers: auth(token, { Origin: 'https://other.example', 'Content-Type': 'application/json' }),
        body: JSON.stringify({ type: 'message', from: { id: 'u1' }, text: 'hi' }),
      });
      expect(send.status).toBe(403);
      expect(send.headers.get('access-control-allow-origin')).toBeNull();
      const bound = await fetch(`${fixture.base}/conversations`, {
        method: 'POST',
        headers: auth(token, { Origin: 'https://app.example' }),
      });
      expect(bound.headers.get('access-control-allow-origin')).toBe('https://app.example');

      // The default bot has no trusted origins: its secret and unbound tokens answer any origin.
      const open = await fetch(`${fixture.base}/conversations`, {
        method: 'POST',
        headers: auth(SECRET, { Origin: 'https://anywhere.example' }),
      });
      expect(open.status).toBe(201);
      expect(open.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
    });

    it("opens a bot's stream only from its trusted origins (WebSockets know no CORS: the upgrade's Origin is checked)", async () => {
      const generated = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: auth(ENHANCED_SECRET, { Origin: TRUSTED_ORIGIN, 'Content-Type': 'application/json' }),
        body: JSON.stringify({ user: { id: 'dl_stream-user' } }),
      });
      const { token } = (await generated.json()) as { token: string };
      const started = await fetch(`${fixture.base}/conversations`, {
        method: 'POST',
        headers: auth(token, { Origin: TRUSTED_ORIGIN }),
      });
      const { streamUrl } = (await started.json()) as { streamUrl: string };
      expect(await upgradeStatus(streamUrl, 'https://evil.example')).toBe(403);
      expect(await upgradeStatus(streamUrl, TRUSTED_ORIGIN)).toBe(101);
      // No Origin: not a browser page (DirectLineJS in Node, a server).
      expect(await upgradeStatus(streamUrl)).toBe(101);

      // A token generated with trustedOrigins binds its stream too; the default bot's stream opens from anywhere.
      const bound = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: auth(SECRET, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ trustedOrigins: ['https://app.example'] }),
      });
      const boundToken = ((await bound.json()) as { token: string }).token;
      const boundStream = (
        (await (
          await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(boundToken) })
        ).json()) as {
          streamUrl: string;
        }
      ).streamUrl;
      expect(await upgradeStatus(boundStream, 'https://other.example')).toBe(403);
      expect(await upgradeStatus(boundStream, 'https://app.example')).toBe(101);
      const open = (await (
        await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
      ).json()) as {
        streamUrl: string;
      };
      expect(await upgradeStatus(open.streamUrl, 'https://anywhere.example')).toBe(101);
    });

    it('answers a preflight for any origin (it carries no credential to tell the bot by), without credentials', async () => {
      const preflight = await fetch(`${fixture.base}/tokens/generate`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,x-ms-bot-agent,x-requested-with',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://evil.example');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    });
  });

  describe('finding 5: credentials in logs', () => {
    it("never logs an attachment's ?t= token (nor the secret or the conversation token)", async () => {
      const started = (await (
        await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
      ).json()) as { conversationId: string; token: string; streamUrl: string };
      const upload = await fetch(`${fixture.base}/conversations/${started.conversationId}/upload?userId=u1`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${started.token}`,
          'Content-Type': 'image/png',
          'Content-Disposition': 'attachment; name="file"; filename="pic.png"',
        },
        body: Buffer.from([137, 80, 78, 71, 1, 2, 3]),
      });
      expect(upload.status).toBe(200);
      const received = await waitFor(
        () =>
          fixture.bot
            .messages(started.conversationId)
            .filter((activity: Activity) => activity.attachments?.length)
            .at(-1),
        'the upload at the bot',
      );
      const contentUrl = received.attachments?.[0]?.contentUrl ?? '';
      const attachmentToken = new URL(contentUrl).searchParams.get('t') ?? '';
      expect(attachmentToken.length).toBeGreaterThan(10);
      expect((await fetch(contentUrl)).status).toBe(200);
      const streamToken = new URL(started.streamUrl).searchParams.get('t') ?? '';
      await fetch(`${fixture.base}/conversations/${started.conversationId}/stream?t=${streamToken}`);

      const log = lines.join('');
      expect(log).toContain('/attachments/');
      expect(log).toContain('t=[redacted]');
      for (const secret of [attachmentToken, streamToken, started.token, SECRET])
        expect(log).not.toContain(secret);
    });
  });

  describe('finding 6: security headers', () => {
    it('sends nosniff, frame and referrer policies and a CSP on Direct Line answers and errors', async () => {
      for (const response of [
        await fetch(`${fixture.base}/tokens/generate`, { method: 'POST', headers: auth(SECRET) }),
        await fetch(`${fixture.base}/conversations`, { method: 'POST' }),
      ]) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(response.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it('adds HSTS when the public URL is https', async () => {
      const https = await startRelay(fixture.configPath, { RELAY_PUBLIC_URL: 'https://relay.example.com' });
      try {
        const response = await fetch(`${https.url}/healthz`);
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      } finally {
        await https.close();
      }
    });
  });

  describe('finding 10: slow headers', () => {
    it('cuts off a client that trickles its headers after the headers deadline (408)', async () => {
      const chunks = slowHeaders('POST /v3/directline/conversations HTTP/1.1');
      const slow = await trickleRequest(fixture.relay.port, chunks, 200, 8_000);
      expect(slow.closedAfterMs).toBeDefined();
      expect(slow.closedAfterMs).toBeLessThan(3_000);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    }, 15_000);
  });
});

/** `depth` objects nested in each other: `{"a":{"a":…1…}}`. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('security review: relay-gateway input (findings 4, 9, 11)', () => {
  let fixture: Fixture;

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => fixture.close());

  async function send(body: string | Buffer, credential?: string): Promise<Response> {
    const { conversationId, token } = await startConversation(fixture.base);
    return fetch(`${fixture.base}/conversations/${conversationId}/activities`, {
      method: 'POST',
      headers: auth(credential ?? token),
      body,
    });
  }

  const activity = (text: string): string => JSON.stringify({ type: 'message', from: { id: 'u1' }, text });

  describe('finding 4: JSON nesting depth', () => {
    it('10,000 nested objects in an activity are 400 BadSyntax, never 500', async () => {
      const response = await send(
        `{"type":"message","from":{"id":"u1"},"text":"x","value":${nested(10_000)}}`,
      );
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('BadSyntax');
      expect(body.error.message).toMatch(/deeper than 64 levels/);
    });

    it('nesting up to the limit (64, JSON_MAX_DEPTH) is accepted', async () => {
      const response = await send(`{"type":"message","from":{"id":"u1"},"text":"x","value":${nested(62)}}`);
      expect(response.status).toBe(200);
    });
  });

  describe('finding 11: invalid bytes', () => {
    it('invalid UTF-8 in a JSON body is 400 BadSyntax, not stored as U+FFFD', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"type":"message","from":{"id":"u1"},"text":"a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      const response = await send(bytes);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error).toEqual({
        code: 'BadSyntax',
        message: expect.stringMatching(/not valid UTF-8 \(byte 0xff/),
      });
    });

    it('a NUL character (\\u0000) in an activity is 400 BadSyntax', async () => {
      const response = await send(activity('before\u0000after'));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('BadSyntax');
    });
  });

  describe('finding 9: bodies are read only after authentication', () => {
    it('an unauthenticated chunked 50 MB POST gets 401 after its headers, unread, and the connection is closed', async () => {
      const { conversationId } = await startConversation(fixture.base);
      const exchange = await chunkedUpload(
        fixture.relay.port,
        [
          `POST /v3/directline/conversations/${conversationId}/activities HTTP/1.1`,
          `Host: 127.0.0.1:${fixture.relay.port}`,
          'Content-Type: application/json',
        ].join('\r\n'),
        50 * 1024 * 1024,
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.received).toMatch(/"code":"BadArgument"/);
      // Answered after the first 64 KB chunk, and the connection closed long before 50 MB were sent.
      expect(exchange.bodyBytesBeforeAnswer).toBe(64 * 1024);
      expect(exchange.closedAfterMs).toBeDefined();
      expect(exchange.bodyBytesWritten).toBeLessThan(20 * 1024 * 1024);
    }, 30_000);

    it('the same for an upload with a wrong token', async () => {
      const { conversationId } = await startConversation(fixture.base);
      const exchange = await chunkedUpload(
        fixture.relay.port,
        [
          `POST /v3/directline/conversations/${conversationId}/upload?userId=u1 HTTP/1.1`,
          `Host: 127.0.0.1:${fixture.relay.port}`,
          'Authorization: Bearer not-a-token',
          'Content-Type: multipart/form-data; boundary=x',
        ].join('\r\n'),
        50 * 1024 * 1024,
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 403 /);
      expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.bodyBytesBeforeAnswer).toBe(64 * 1024);
      expect(exchange.closedAfterMs).toBeDefined();
      expect(exchange.bodyBytesWritten).toBeLessThan(20 * 1024 * 1024);
    }, 30_000);

    it('authenticated bodies are still read: oversize activities are 413 MessageSizeTooBig, others pass', async () => {
      const large = await send(activity('x'.repeat(600 * 1024)));
      expect(large.status).toBe(413);
      expect(((await large.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
      const huge = await send(activity('x'.repeat(2 * 1024 * 1024)));
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
      const small = await send(activity('hello'));
      expect(small.status).toBe(200);
      expect(small.headers.get('connection')).not.toBe('close');
    });
  });
});

describe('security review: relay-gateway, finding 13: /metrics', () => {
  const metricsToken = 'relay-metrics-token-0123456789';

  it('with METRICS_BEARER_TOKEN: 401 in the Direct Line format without the token, 200 with it', async () => {
    const fixture = await startFixture({ METRICS_BEARER_TOKEN: metricsToken });
    try {
      const open = await fetch(`${fixture.relay.url}/metrics`);
      expect(open.status).toBe(401);
      expect(open.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(((await open.json()) as { error: { code: string } }).error.code).toBeTruthy();
      const scraped = await fetch(`${fixture.relay.url}/metrics`, {
        headers: { Authorization: `Bearer ${metricsToken}` },
      });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('relay_open_streams');
    } finally {
      await fixture.close();
    }
  });

  it('with METRICS_PORT: absent from the app port, served on the metrics port only', async () => {
    const fixture = await startFixture({ METRICS_PORT: '0' });
    try {
      expect((await fetch(`${fixture.relay.url}/metrics`)).status).toBe(404);
      const scraped = await fetch(fixture.relay.metricsUrl ?? 'http://127.0.0.1:1/metrics');
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('relay_open_streams');
    } finally {
      await fixture.close();
    }
  });
});

describe('issue 22, item 5: published secrets are refused outside tests', () => {
  it("refuses the example configuration's Direct Line secrets and a change-me connector key, naming each", async () => {
    const started = startRelayGateway({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        RELAY_GATEWAY_PORT: '0',
        PLATFORM_CONFIG: resolve(__dirname, '../../../infra/config/platform.example.yaml'),
        RELAY_CONNECTOR_URL: 'http://127.0.0.1:1',
        RELAY_CONNECTOR_KEY: 'change-me-internal-key-0123456789abcdef',
      },
    });
    await expect(started).rejects.toThrow(/RELAY_CONNECTOR_KEY: holds a published example value/);
    const refused = startRelayGateway({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        RELAY_GATEWAY_PORT: '0',
        PLATFORM_CONFIG: resolve(__dirname, '../../../infra/config/platform.example.yaml'),
      },
    });
    await expect(refused).rejects.toThrow(/bots\.0\.directLine\.secrets\.0: holds a published example value/);
    await expect(refused).rejects.not.toThrow(/demo-directline-secret/);
  });
});
