import { randomUUID } from 'node:crypto';
import { BotTokenMinter } from '@fieldops/connector-gateway';
import { oversizedBody, trickleRequest } from '@fieldops/testing';
import { InspectionApiClient, startInspectionBot } from '../src';
import {
  BOT,
  INSPECTOR,
  type RunningInspectionPlatform,
  SERVICE_ACCOUNT,
  startInspectionPlatform,
} from './support/platform';

/** Probes of the chat page's sign-in and sessions (issue 22), replayed so none can come back. */
describe('inspection-bot security: sign-in and sessions', () => {
  let platform: RunningInspectionPlatform;
  beforeAll(async () => {
    platform = await startInspectionPlatform();
  }, 60_000);
  afterAll(() => platform?.close());

  /** A sign-in from `address` (the test runner is a trusted proxy on loopback, as nginx would be). */
  const signIn = (username: string, password: string, address: string): Promise<Response> =>
    fetch(`${platform.bot.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ username, password }),
    });

  it('item 2: 30 wrong sign-ins from two addresses lock out neither the other users nor the bot', async () => {
    for (const stranger of ['198.51.100.201', '198.51.100.202']) {
      for (let attempt = 0; attempt < 15; attempt += 1) {
        const response = await signIn(`ghost-${randomUUID()}`, 'wrong', stranger);
        expect(response.status).toBe(401);
        await response.body?.cancel();
      }
    }
    // inspection-api counted each stranger's address, not the bot's: everyone else still signs in …
    const inspector = await signIn(INSPECTOR.username, INSPECTOR.password, '198.51.100.203');
    expect(inspector.status).toBe(200);
    // … and so does the bot's own service account (from the bot's address).
    const service = new InspectionApiClient({ baseUrl: platform.api.url, ...SERVICE_ACCOUNT });
    await expect(service.accessToken()).resolves.toEqual(expect.any(String));
  }, 180_000);

  it('item 3: wrong passwords for an account lock its (account, address) pair only, never the owner elsewhere', async () => {
    await platform.createAccount('dave.targeted', 'dave-password-1');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await signIn('dave.targeted', 'wrong', '198.51.100.211');
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    const attacker = await signIn('dave.targeted', 'dave-password-1', '198.51.100.211');
    expect(attacker.status).toBe(429);
    // The owner, from an address that has not failed, signs in (inspection-api only slows the name down).
    expect((await signIn('dave.targeted', 'dave-password-1', '198.51.100.212')).status).toBe(200);
  }, 120_000);

  describe('item 9: a signed-out session stays dead', () => {
    const cookieOf = (response: Response): string =>
      (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const withCookie = async (
      cookie: string,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<Response> => {
      const send = (): Promise<Response> =>
        fetch(`${platform.bot.url}${path}`, {
          method,
          headers: { cookie, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      // Once more on a kept-alive connection the restarted bot's predecessor closed ("other side closed").
      return send().catch(send);
    };
    const claimsOf = (jwt: string): { exp: number; until?: number } =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as {
        exp: number;
        until?: number;
      };

    it('a copy of a signed-out cookie is refused, after a restart of the bot too; so is its Direct Line refresh', async () => {
      await platform.createAccount('erin.signout', 'erin-password-1');
      const signedIn = await signIn('erin.signout', 'erin-password-1', '198.51.100.221');
      expect(signedIn.status).toBe(200);
      const copy = cookieOf(signedIn);
      const token = await withCookie(copy, 'POST', '/api/directline/token', {});
      expect(token.status).toBe(200);
      const chat = (await token.json()) as { token: string; conversationId: string; expiresIn: number };
      // The Direct Line token cannot be refreshed past the session's end (the cookie's TTL, 8 h by default).
      const claims = claimsOf(chat.token);
      expect(claims.until).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 28_800);
      expect(claims.exp).toBeLessThanOrEqual(claims.until!);
      const out = await withCookie(copy, 'DELETE', '/api/session');
      expect(out.status).toBe(204);
      expect(await (await withCookie(copy, 'GET', '/api/session')).json()).toEqual({ user: null });

      await platform.restartBot();
      expect(await (await withCookie(copy, 'GET', '/api/session')).json()).toEqual({ user: null });
      const refresh = await withCookie(copy, 'POST', '/api/directline/token', {
        conversationId: chat.conversationId,
        token: chat.token,
      });
      expect(refresh.status).toBe(401);
      expect(await refresh.json()).toMatchObject({ error: { code: 'NotSignedIn' } });
      // A session that was not signed out survives the restart.
      const other = await signIn('erin.signout', 'erin-password-1', '198.51.100.222');
      await platform.restartBot();
      const kept = await withCookie(cookieOf(other), 'GET', '/api/session');
      expect(await kept.json()).toEqual({ user: { id: expect.any(Number), username: 'erin.signout' } });
    }, 120_000);

    it('a password reset ends the chat sessions of that account', async () => {
      const id = await platform.createAccount('fred.reset', 'fred-password-1');
      const signedIn = await signIn('fred.reset', 'fred-password-1', '198.51.100.223');
      const cookie = cookieOf(signedIn);
      await platform.restartBot();
      const reset = await fetch(`${platform.api.url}/api/users/${id}/set_password/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await platform.client.accessToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ password: 'fred-password-2' }),
      });
      expect(reset.status).toBe(204);
      expect(await (await withCookie(cookie, 'GET', '/api/session')).json()).toEqual({ user: null });
    }, 120_000);
  });
});

describe('issue 22, item 5: published secrets are refused outside tests', () => {
  it("refuses docker-compose's old change-me password and the example configuration's secrets, naming each", async () => {
    const started = startInspectionBot({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        INSPECTION_BOT_PORT: '0',
        INSPECTION_BOT_API_PASSWORD: 'change-me-inspection-bot-password',
        INSPECTION_BOT_DIRECTLINE_SECRET: 'demo-directline-secret-0001',
        MicrosoftAppId: '00000000-0000-0000-0000-00000000d3m0',
        MicrosoftAppPassword: 'inspection-bot-dev-password',
      },
    });
    await expect(started).rejects.toThrow(/INSPECTION_BOT_API_PASSWORD: holds a published example value/);
    await expect(started).rejects.toThrow(
      /INSPECTION_BOT_DIRECTLINE_SECRET: holds a published example value/,
    );
    await expect(started).rejects.toThrow(/MicrosoftAppPassword: holds a published example value/);
  });
});

/** Probes of the bot's routes under oversized, slow and unauthenticated bodies (issue 22, items 8 and 10). */
describe('inspection-bot security: bodies and the messaging endpoint', () => {
  // Far more than the bot's 1 MB JSON limit plus what the kernel's socket buffers hold on loopback: a server that read
  // or drained the body takes all of it before answering.
  const TOTAL = 96 * 1024 * 1024;
  const CUT_BEFORE = 16 * 1024 * 1024;
  let platform: RunningInspectionPlatform;
  let port: number;
  beforeAll(async () => {
    platform = await startInspectionPlatform();
    port = platform.bot.port;
  }, 60_000);
  afterAll(() => platform?.close());

  const botToken = (): string =>
    platform.connector.app.get(BotTokenMinter).mint({ appId: BOT.appId }, `${platform.connector.url}/`).token;

  it('item 10: an unauthenticated {} to /api/messages is a 401 (the header is checked first), never a 500', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not.a.token' },
      { authorization: 'Basic eDp5' },
    ];
    for (const headers of variants) {
      const response = await fetch(`${platform.bot.url}/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'Unauthorized', message: expect.any(String) } });
    }
  });

  it('item 10: an authenticated body that is not an activity is a 400 BadArgument, never a 500', async () => {
    for (const body of ['{}', '[]', '"text"', '{"type":5}', '{"type":""}']) {
      const response = await fetch(`${platform.bot.url}/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${botToken()}` },
        body,
      });
      expect([body, response.status]).toEqual([body, 400]);
      // A JSON text that is not an object or array is the parser's BadSyntax; any other JSON that is no activity, BadArgument.
      expect(await response.json()).toEqual({
        error: { code: body === '"text"' ? 'BadSyntax' : 'BadArgument', message: expect.any(String) },
      });
    }
  });

  it.each([false, true])(
    'item 8: /api/messages without a token and a huge body (chunked: %s) is a 401 with the body unread, closed',
    async (chunked) => {
      const exchange = await oversizedBody(
        port,
        'POST /api/messages HTTP/1.1\nHost: localhost\nContent-Type: application/json',
        TOTAL,
        { chunked },
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(exchange.received.toLowerCase()).toContain('connection: close');
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
    },
  );

  it.each([false, true])(
    'item 8: /api/messages with a valid token and a body over 1 MB (chunked: %s) is a 413, cut off and closed',
    async (chunked) => {
      const exchange = await oversizedBody(
        port,
        `POST /api/messages HTTP/1.1\nHost: localhost\nContent-Type: application/json\nAuthorization: Bearer ${botToken()}`,
        TOTAL,
        { chunked, prefix: '{"type":"message","text":"' },
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
    },
  );

  it('item 8: the chat token route checks the session before the body: 401 NotSignedIn, body unread, closed', async () => {
    const exchange = await oversizedBody(
      port,
      'POST /api/directline/token HTTP/1.1\nHost: localhost\nContent-Type: application/json',
      TOTAL,
      { chunked: true },
    );
    expect(exchange.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.received).toContain('NotSignedIn');
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
  });

  it('item 8: a sign-in body over 1 MB is a 413, cut off and closed', async () => {
    const exchange = await oversizedBody(
      port,
      'POST /api/session HTTP/1.1\nHost: localhost\nContent-Type: application/json',
      TOTAL,
      { chunked: true, prefix: '{"username":"' },
    );
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
  });
});

describe('issue 22, item 8: the request deadline', () => {
  const required = {
    LOG_LEVEL: 'silent',
    INSPECTION_BOT_PORT: '0',
    INSPECTION_BOT_API_PASSWORD: 'deadline-test-password',
    INSPECTION_BOT_DIRECTLINE_SECRET: 'deadline-test-directline-secret',
  };
  it('is validated at start-up: shorter than the headers deadline is refused, naming the variable', async () => {
    await expect(
      startInspectionBot({
        environment: {
          ...required,
          HTTP_HEADERS_TIMEOUT_MS: '20000',
          HTTP_REQUEST_TIMEOUT_MS: '10000',
        },
      }),
    ).rejects.toThrow(/HTTP_REQUEST_TIMEOUT_MS: 10000 is shorter than HTTP_HEADERS_TIMEOUT_MS/);
    await expect(
      startInspectionBot({
        environment: { ...required, HTTP_REQUEST_TIMEOUT_MS: '900000' },
      }),
    ).rejects.toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('cuts off a trickled sign-in body with 408', async () => {
    const bot = await startInspectionBot({
      environment: {
        ...required,
        HOST: '127.0.0.1',
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '2000',
      },
    });
    try {
      const body = JSON.stringify({ username: 'someone', password: 'x'.repeat(200) });
      const chunks = [
        `POST /api/session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...body.match(/.{1,2}/g)!,
      ];
      // 100+ two-byte pieces, one every 500 ms: most of a minute to send the body, far past the 2 s deadline.
      const exchange = await trickleRequest(bot.port, chunks, 500, 90_000);
      expect(exchange.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(exchange.closedAfterMs).toBeDefined();
    } finally {
      await bot.close();
    }
  }, 120_000);
});
