import { Writable } from 'node:stream';
import { createLogger } from '@fieldops/platform';
import { BOT, INSPECTOR, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

/** Every line the bot logs, parsed (each must be one JSON object). */
const logLines: string[] = [];
const botLogger = createLogger({
  service: 'inspection-bot',
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  }),
});

function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

describe('the bot app over HTTP: chat page, Web Chat bundle, token route, messaging endpoint, readiness', () => {
  let platform: RunningInspectionPlatform;
  beforeAll(async () => {
    platform = await startInspectionPlatform({ botLogger });
  }, 60_000);
  afterAll(() => platform?.close());

  it('serves the chat page (no secret in it), its build with Web Chat bundled, the manifest and the service worker', async () => {
    const page = await fetch(`${platform.bot.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain(BOT.directLineSecret);
    expect(html).not.toMatch(/\{\{\w+\}\}/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    // Page chrome in the language of ?locale= or the browser's.
    const chinese = await (await fetch(`${platform.bot.url}/?locale=zh-CN`)).text();
    expect(chinese).toContain('<html lang="zh-CN">');
    expect(chinese).toContain('登录后开始巡检');
    const browser = await fetch(`${platform.bot.url}/`, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(await browser.text()).toContain('<title>FieldOps 巡检</title>');

    // The page's script (Web Chat and React bundled in by Vite) and styles: hashed names, cached for good.
    const script = /<script type="module" crossorigin src="\.\/(assets\/[\w.-]+\.js)"><\/script>/.exec(
      html,
    )?.[1];
    const styles = /<link rel="stylesheet" crossorigin href="\.\/(assets\/[\w.-]+\.css)">/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(styles).toBeDefined();
    const bundle = await fetch(`${platform.bot.url}/${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('cache-control')).toMatch(/immutable/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    expect((await fetch(`${platform.bot.url}/${styles}`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${platform.bot.url}/assets/not-there.js`)).status).toBe(404);
    expect((await fetch(`${platform.bot.url}/assets/..%2Fpackage.json`)).status).toBe(404);

    // Installable: a web app manifest with icons, a service worker at the page's scope.
    const manifest = await fetch(`${platform.bot.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const { icons, display, start_url } = (await manifest.json()) as {
      icons: Array<{ src: string; sizes: string }>;
      display: string;
      start_url: string;
    };
    expect({ display, start_url }).toEqual({ display: 'standalone', start_url: './' });
    for (const icon of icons) {
      expect((await fetch(`${platform.bot.url}/${icon.src}`)).status).toBe(200);
    }
    expect(icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    const worker = await fetch(`${platform.bot.url}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // Its own policy: the API default (default-src 'none') would block the fetches that install it.
    expect(worker.headers.get('content-security-policy')).toBe("default-src 'none'; connect-src 'self'");
  });

  /** Signs in; the session cookie (name=value). */
  const signIn = async (username: string, password: string, address?: string): Promise<Response> =>
    fetch(`${platform.bot.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(address ? { 'x-forwarded-for': address } : {}) },
      body: JSON.stringify({ username, password }),
    });
  const cookieOf = (response: Response): string =>
    (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  it('signs in with an inspection-api account: an httpOnly SameSite=Lax sealed cookie, the session, sign-out', async () => {
    const nobody = await fetch(`${platform.bot.url}/api/session`);
    expect(nobody.status).toBe(200);
    expect(await nobody.json()).toEqual({ user: null });
    const response = await signIn(INSPECTOR.username, INSPECTOR.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      user: { id: platform.inspectorId, username: INSPECTOR.username },
    });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^fieldops_chat=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http here; https requests get Secure
    // Sealed: neither the password nor the inspection-api tokens can be read from the cookie.
    expect(setCookie).not.toContain(INSPECTOR.password);
    expect(setCookie).not.toContain('eyJ');
    const cookie = cookieOf(response);

    const session = await fetch(`${platform.bot.url}/api/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.headers.get('set-cookie')).toMatch(/^fieldops_chat=/); // renewed while active

    // Behind an https proxy the cookie is Secure.
    const secure = await fetch(`${platform.bot.url}/api/session`, {
      headers: { cookie, 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers.get('set-cookie')).toMatch(/; Secure/i);

    const signOut = await fetch(`${platform.bot.url}/api/session`, { method: 'DELETE', headers: { cookie } });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toMatch(/^fieldops_chat=;/);
    // A copy of the old cookie is refused too.
    expect(await (await fetch(`${platform.bot.url}/api/session`, { headers: { cookie } })).json()).toEqual({
      user: null,
    });
    expect(
      (
        await fetch(`${platform.bot.url}/api/directline/token`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
  });

  it('refuses a wrong password (401 InvalidCredentials) and throttles per account and per address (429 + Retry-After)', async () => {
    const wrong = await signIn(INSPECTOR.username, 'not-the-password', '198.51.100.1');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: { code: 'InvalidCredentials', message: 'Wrong user name or password.' },
    });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect((await signIn('', '')).status).toBe(400);

    // Per (account, address): 5 refused passwords in 15 minutes lock that pair only.
    await platform.createAccount('carol.throttled', 'carol-password-1');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await signIn('carol.throttled', 'wrong', '198.51.100.11')).status).toBe(401);
    }
    const locked = await signIn('Carol.Throttled', 'carol-password-1', '198.51.100.11');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.json()).toEqual({
      error: { code: 'TooManyRequests', message: 'Too many sign-in attempts.' },
    });

    // Per address: 20 attempts in 15 minutes, whatever the account.
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      expect((await signIn(`nobody-${attempt}`, 'wrong', '203.0.113.7')).status).toBe(401);
    }
    const flooded = await signIn(INSPECTOR.username, INSPECTOR.password, '203.0.113.7');
    expect(flooded.status).toBe(429);
    expect(Number(flooded.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(INSPECTOR.username, INSPECTOR.password, '203.0.113.8')).status).toBe(200);
  });

  it('gives a signed-in session a token embedding dl_<user id>, rate limited per session', async () => {
    const anonymous = await fetch(`${platform.bot.url}/api/directline/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: { code: 'NotSignedIn', message: 'Sign in first.' } });

    const cookie = cookieOf(await signIn(INSPECTOR.username, INSPECTOR.password, '192.0.2.50'));
    const token = () =>
      fetch(`${platform.bot.url}/api/directline/token`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ locale: 'zh-CN', name: 'Mallory' }),
      });
    const response = await token();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      token: expect.any(String),
      conversationId: expect.any(String),
      expiresIn: 3600,
      userId: `dl_${platform.inspectorId}`,
      userName: INSPECTOR.username,
      domain: `${platform.relay.url}/v3/directline`,
    });
    expect(JSON.stringify(body)).not.toContain(BOT.directLineSecret);
    expect(jwtPayload(body.token ?? '')).toMatchObject({
      user: `dl_${platform.inspectorId}`,
      conv: body.conversationId,
    });
    // 6 tokens a minute per session.
    const statuses: number[] = [];
    for (let request = 0; request < 6; request += 1) statuses.push((await token()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("rejoins the page's conversation with a refreshed token; an unknown token gets a new one for the account's home conversation; another account's token is never honoured", async () => {
    const cookie = cookieOf(await signIn(INSPECTOR.username, INSPECTOR.password, '192.0.2.51'));
    const token = async (body: unknown, as = cookie) =>
      (await (
        await fetch(`${platform.bot.url}/api/directline/token`, {
          method: 'POST',
          headers: { cookie: as, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, string>;
    const first = await token({ locale: 'en-US' });
    const rejoined = await token({ conversationId: first.conversationId, token: first.token });
    expect(rejoined.conversationId).toBe(first.conversationId);
    expect(jwtPayload(rejoined.token ?? '')).toMatchObject({
      user: `dl_${platform.inspectorId}`,
      conv: first.conversationId,
    });
    // A made-up token: a new token (a new opening) for the account's own home conversation, never someone else's.
    const renewed = await token({ conversationId: first.conversationId, token: 'not-a-token' });
    expect(renewed.conversationId).toBe(first.conversationId);
    expect(jwtPayload(renewed.token ?? '')).toMatchObject({ user: `dl_${platform.inspectorId}` });
    await platform.createAccount('carol.other', 'carol-other-password-1');
    const carol = cookieOf(await signIn('carol.other', 'carol-other-password-1', '192.0.2.52'));
    const stolen = await token({ conversationId: first.conversationId, token: first.token }, carol);
    expect(stolen.conversationId).not.toBe(first.conversationId);
    expect(stolen.userId).not.toBe(first.userId);
  });

  it("sends a QR label's short path /d/CODE to the page with ?device=CODE", async () => {
    const response = await fetch(`${platform.bot.url}/d/PUMP-001`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location') ?? '', `${platform.bot.url}/d/PUMP-001`).href).toBe(
      `${platform.bot.url}/?device=PUMP-001`,
    );
  });

  it("a client sending another from.id (or none) cannot record under someone else's name", async () => {
    const bob = await platform.createAccount('bob.victim', 'bob-victim-password-1');
    const cookie = cookieOf(await signIn(INSPECTOR.username, INSPECTOR.password, '192.0.2.60'));
    const { token, conversationId, domain } = (await (
      await fetch(`${platform.bot.url}/api/directline/token`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string; conversationId: string; domain: string };
    const origin = platform.bot.url;
    const relay = (path: string, body?: unknown) =>
      fetch(`${domain}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await relay('/conversations')).status).toBeLessThan(300);
    const pump = await platform.client.findDeviceByCode('PUMP-001');
    const answer = { action: 'record', device: pump?.id, item: pump?.check_items[0]?.id, status: 'fail' };
    const before = await platform.client.countRecords({ device: pump?.id ?? 0 });
    // Another account's id and name: the relay stamps the token's user, so the record is the signed-in account's.
    const forged = await relay(`/conversations/${conversationId}/activities`, {
      type: 'message',
      from: { id: `dl_${bob}`, name: 'bob.victim' },
      value: { ...answer, note: 'forged' },
    });
    expect(forged.status).toBe(200);
    let records = await platform.client.lastRecords(pump?.id ?? 0, 1);
    for (let attempt = 0; attempt < 100 && records[0]?.note !== 'forged'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      records = await platform.client.lastRecords(pump?.id ?? 0, 1);
    }
    expect(records[0]).toMatchObject({ note: 'forged', checked_by: INSPECTOR.username });
    // No from at all: refused by the relay, nothing recorded.
    const anonymous = await relay(`/conversations/${conversationId}/activities`, {
      type: 'message',
      value: { ...answer, note: 'no from' },
    });
    expect(anonymous.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await platform.client.countRecords({ device: pump?.id ?? 0 })).toBe(before + 1);
  });

  it("makes a record with the inspector's own token: inspection-api sets checked_by, the audit trail names them", async () => {
    const cookie = cookieOf(await signIn(INSPECTOR.username, INSPECTOR.password, '192.0.2.61'));
    const { token, conversationId, domain } = (await (
      await fetch(`${platform.bot.url}/api/directline/token`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string; conversationId: string; domain: string };
    const relay = (path: string, body?: unknown) =>
      fetch(`${domain}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          origin: platform.bot.url,
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await relay('/conversations')).status).toBeLessThan(300);
    const pump = await platform.client.findDeviceByCode('PUMP-001');
    const sent = await relay(`/conversations/${conversationId}/activities`, {
      type: 'message',
      from: { id: 'ignored' },
      value: {
        action: 'record',
        device: pump?.id,
        // Not the item the previous test answered: a second answer in the period is only made when confirmed.
        item: pump?.check_items[1]?.id,
        status: 'ok',
        note: 'own token',
      },
    });
    expect(sent.status).toBe(200);
    let records = await platform.client.lastRecords(pump?.id ?? 0, 1);
    for (let attempt = 0; attempt < 100 && records[0]?.note !== 'own token'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      records = await platform.client.lastRecords(pump?.id ?? 0, 1);
    }
    expect(records[0]).toMatchObject({ note: 'own token', checked_by: INSPECTOR.username });
    // Who wrote it, as inspection-api saw the bearer token: the inspector, not the bot's service account.
    const audit = await fetch(
      `${platform.api.url}/api/audit/?resource=record&resource_id=${records[0]?.id}`,
      {
        headers: { authorization: `Bearer ${await platform.client.accessToken()}` },
      },
    );
    const entries = (
      (await audit.json()) as { results: Array<{ event: string; actor: number; actor_username: string }> }
    ).results;
    expect(entries).toEqual([
      expect.objectContaining({
        event: 'created',
        actor: platform.inspectorId,
        actor_username: INSPECTOR.username,
      }),
    ]);
  });

  it('refuses unauthenticated activities (the bot runs with an app id and password) and is ready', async () => {
    const unauthenticated = await fetch(`${platform.bot.url}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'message',
        text: 'devices',
        channelId: 'directline',
        serviceUrl: `${platform.connector.url}/`,
        conversation: { id: 'c1' },
        from: { id: 'u1' },
        recipient: { id: BOT.id },
      }),
    });
    expect(unauthenticated.status).toBe(401);

    // A token from the channel's issuer whose signing key is unknown: botbuilder's AuthenticationError is one
    // JSON line with its reason, not a stack trace on the console.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = `${part({ alg: 'RS256', kid: 'no-such-key', typ: 'JWT' })}.${part({
      iss: 'https://api.botframework.com',
      aud: BOT.appId,
      serviceurl: `${platform.connector.url}/`,
    })}.c2lnbmF0dXJl`;
    logLines.splice(0);
    const refused = await fetch(`${platform.bot.url}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forged}` },
      body: JSON.stringify({
        type: 'message',
        text: 'devices',
        channelId: 'directline',
        serviceUrl: `${platform.connector.url}/`,
        conversation: { id: 'c1' },
        from: { id: 'u1' },
        recipient: { id: BOT.id },
      }),
    });
    expect(refused.status).toBe(401);
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const failures = entries.filter((entry) => entry.msg === 'activity refused: authentication failed');
    expect(failures).toEqual([
      expect.objectContaining({
        level: 'warn',
        status: 401,
        reason: 'AuthenticationError: Signing Key could not be retrieved.',
      }),
    ]);
    expect(entries.filter((entry) => entry.source === 'console')).toEqual([]);

    const ready = await fetch(`${platform.bot.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { 'inspection-api': { status: 'up' } } });
  });
});
