import { Writable } from 'node:stream';
import { createLogger } from '@fieldops/platform';
import { BOT, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

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

  it('serves the chat page (no secret in it) and Web Chat from the installed package', async () => {
    const page = await fetch(`${platform.bot.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<script src="webchat.js"></script>');
    expect(html).not.toContain(BOT.directLineSecret);

    const bundle = await fetch(`${platform.bot.url}/webchat.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  it('exchanges the secret for a token with the user embedded (dl_ id, the typed name)', async () => {
    const response = await fetch(`${platform.bot.url}/api/directline/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '  Bob   the  Builder ', locale: 'zh-CN' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      token: expect.any(String),
      conversationId: expect.any(String),
      expiresIn: 3600,
      userId: expect.stringMatching(/^dl_[0-9a-f-]{36}$/),
      userName: 'Bob the Builder',
      domain: `${platform.relay.url}/v3/directline`,
    });
    expect(JSON.stringify(body)).not.toContain(BOT.directLineSecret);
    expect(jwtPayload(body.token ?? '')).toMatchObject({ user: body.userId, conv: body.conversationId });

    const anonymous = (await (
      await fetch(`${platform.bot.url}/api/directline/token`, { method: 'POST' })
    ).json()) as Record<string, string>;
    expect(anonymous.userName).toBe('Inspector');
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
