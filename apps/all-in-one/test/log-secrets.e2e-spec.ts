import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { freePort } from '@fieldops/platform';

/**
 * Issue 15, finding 5: a whole run of the platform, logs included, holds none of the secrets it was given nor any
 * credential it issued. `npm start`'s launcher runs every app as its own process (DATABASE_URL and REDIS_URL set) at
 * LOG_LEVEL=debug; everything the launcher and its children write to stdout and stderr is captured. The flow touches
 * every kind of credential: inspection-api login (right and wrong password) and refresh, Direct Line token
 * generation, start, refresh, a message answered by the stock botbuilder inspection bot (which takes a token from the
 * connector with its app password), an upload and its `?t=` download, the stream URL, the connector's token endpoint,
 * an AI-services translation with a resource key against a local upstream double (which receives its own key), an
 * AI token exchange, and a metrics scrape with its bearer token.
 */

const REPOSITORY_ROOT = resolve(__dirname, '../../..');
const LAUNCHER = join(REPOSITORY_ROOT, 'apps/all-in-one/dist/main.js');
const BOT_USER = 'dl_log-secrets-user';
const SCOPE = 'https://api.botframework.com/.default';

const secret = (label: string): string => `${label}-${randomBytes(18).toString('hex')}`;

/** A stand-in for an upstream Translator v3 service (outside the platform): echoes texts upper-cased. */
async function startUpstreamTranslator(): Promise<{ url: string; keysSeen: string[]; server: Server }> {
  const keysSeen: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      keysSeen.push(String(request.headers['ocp-apim-subscription-key'] ?? ''));
      const texts = JSON.parse(body || '[]') as Array<{ Text: string }>;
      const targets = new URL(request.url ?? '/', 'http://upstream').searchParams.getAll('to');
      response.setHeader('Content-Type', 'application/json');
      response.end(
        JSON.stringify(
          texts.map((text) => ({
            translations: targets.map((to) => ({ text: text.Text.toUpperCase(), to })),
          })),
        ),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keysSeen, server };
}

/** Opens the conversation's WebSocket stream (the handshake only: the relay logs the connection) and closes it. */
function openStream(streamUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(streamUrl.replace(/^ws/, 'http'));
    const handshake = httpRequest(target, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    handshake.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    handshake.once('response', (response) => resolve(response.statusCode ?? 0));
    handshake.once('error', reject);
    handshake.end();
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

const json = (value: unknown): string => JSON.stringify(value);

// The e2e tier's services give every run a Redis (jest.services.js), so each app runs as its own process.
describe('a whole run of the platform logs none of its secrets', () => {
  const secrets: Record<string, string> = {
    directLineSecret: secret('dl-secret'),
    appPassword: secret('app-password'),
    aiKey1: secret('ai-key-one'),
    aiKey2: secret('ai-key-two'),
    upstreamTranslatorKey: secret('upstream-key'),
    relayTokenSigningKey: secret('relay-signing'),
    inspectionJwtSigningKey: secret('jwt-signing'),
    internalKey: secret('internal-key'),
    serviceAccountPassword: secret('bot-account-password'),
    wrongPassword: secret('wrong-password'),
    metricsToken: secret('metrics-token'),
  };
  /** Credentials the platform issued during the run (tokens), added as they are seen. */
  const issued: Record<string, string> = {};
  const appId = `log-secrets-app-${randomBytes(4).toString('hex')}`;
  const signingKey: string = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  let database: ScratchDatabase;
  let launcher: ChildProcess;
  let output = '';
  let work: string;
  let upstream: Awaited<ReturnType<typeof startUpstreamTranslator>>;
  const ports = { api: 0, relay: 0, connector: 0, bot: 0 };
  const url = (port: number): string => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL is set by the Jest global setup');
    database = await createScratchDatabase(adminUrl, 'log_secrets');
    work = mkdtempSync(join(tmpdir(), 'log-secrets-'));
    upstream = await startUpstreamTranslator();
    ports.api = await freePort();
    ports.relay = await freePort();
    ports.connector = await freePort();
    ports.bot = await freePort();
    const config = join(work, 'platform.yaml');
    writeFileSync(
      config,
      [
        'bots:',
        '  - id: inspection-bot',
        `    appId: ${appId}`,
        '    name: Inspection bot',
        `    messagingEndpoint: ${url(ports.bot)}/api/messages`,
        `    appPassword: ${secrets.appPassword}`,
        '    directLine:',
        `      secrets: [${secrets.directLineSecret}]`,
        '      enhancedAuthentication: true',
        `      trustedOrigins: [${url(ports.bot)}]`,
        'relay:',
        `  tokenSigningKeys: [${secrets.relayTokenSigningKey}]`,
        'aiServices:',
        '  resources:',
        '    - name: log-translator',
        '      kind: translator',
        '      region: global',
        `      keys: [${secrets.aiKey1}, ${secrets.aiKey2}]`,
        '      customSubdomain: log-translator',
        '      localAuthDisabled: false',
        `      roleAssignments: [${appId}]`,
        '  translation:',
        '    provider: upstream',
        '    upstream:',
        `      endpoint: ${upstream.url}`,
        `      key: ${secrets.upstreamTranslatorKey}`,
        '      timeoutMs: 5000',
        '  tokenExchangeRegions: [chinaeast2]',
        '  customSubdomainHostSuffix: cognitiveservices.azure.cn',
        '',
      ].join('\n'),
    );
    const runId = randomBytes(6).toString('hex');
    launcher = spawn(process.execPath, [LAUNCHER], {
      cwd: REPOSITORY_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL,
        BUS_CHANNEL_PREFIX: `fieldops:test:${runId}:bus:`,
        STORE_KEY_PREFIX: `fieldops:test:${runId}:store:`,
        INSPECTION_RATE_LIMIT_KEY_PREFIX: `fieldops:test:${runId}:rate:`,
        PLATFORM_CONFIG: config,
        INSPECTION_API_PORT: String(ports.api),
        RELAY_GATEWAY_PORT: String(ports.relay),
        CONNECTOR_GATEWAY_PORT: String(ports.connector),
        INSPECTION_BOT_PORT: String(ports.bot),
        CONNECTOR_INTERNAL_KEY: secrets.internalKey,
        RELAY_CONNECTOR_KEY: secrets.internalKey,
        CONNECTOR_SIGNING_KEYS: json([{ kid: 'log-secrets', pem: signingKey }]),
        INSPECTION_JWT_SIGNING_KEY: secrets.inspectionJwtSigningKey,
        INSPECTION_BOT_API_PASSWORD: secrets.serviceAccountPassword,
        INSPECTION_MEDIA_ROOT: join(work, 'media'),
        METRICS_BEARER_TOKEN: secrets.metricsToken,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (const port of Object.values(ports))
      await waitFor(
        async () => ((await fetch(`${url(port)}/readyz`)).status === 200 ? true : undefined),
        `/readyz on ${port} (launcher output so far:\n${output.slice(-3000)})`,
      );
  }, 180_000);

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGTERM');
      await once(launcher, 'exit');
    }
    upstream?.server.close();
    await database?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('drives every credential through the stack, then finds none of them in any log line', async () => {
    const api = url(ports.api);
    const relay = `${url(ports.relay)}/v3/directline`;
    const connector = url(ports.connector);

    // inspection-api: a wrong password, the right one, a refresh.
    const post = (target: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: json(body),
      });
    const wrong = await post(`${api}/api/token/`, {
      username: 'inspection-bot',
      password: secrets.wrongPassword,
    });
    expect(wrong.status).toBe(401);
    const login = await post(`${api}/api/token/`, {
      username: 'inspection-bot',
      password: secrets.serviceAccountPassword,
    });
    expect(login.status).toBe(201);
    const pair = (await login.json()) as { access: string; refresh: string };
    issued.inspectionAccess = pair.access;
    issued.inspectionRefresh = pair.refresh;
    const refreshed = await post(`${api}/api/token/refresh/`, { refresh: pair.refresh });
    expect(refreshed.status).toBe(201);
    issued.inspectionRefreshedAccess = ((await refreshed.json()) as { access: string }).access;
    expect(
      (await fetch(`${api}/api/devices/`, { headers: { authorization: `Bearer ${pair.access}` } })).status,
    ).toBe(200);

    // Direct Line: a token for an embedded user, the conversation, a refresh.
    const generated = await post(
      `${relay}/tokens/generate`,
      { user: { id: BOT_USER } },
      { authorization: `Bearer ${secrets.directLineSecret}` },
    );
    expect(generated.status).toBe(200);
    issued.directLineGenerated = ((await generated.json()) as { token: string }).token;
    const started = await fetch(`${relay}/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.directLineGenerated}` },
    });
    expect(started.status).toBe(201);
    const conversation = (await started.json()) as {
      conversationId: string;
      token: string;
      streamUrl: string;
    };
    issued.conversationToken = conversation.token;
    issued.streamToken = new URL(conversation.streamUrl).searchParams.get('t') ?? '';
    expect(await openStream(conversation.streamUrl)).toBe(101);
    const renewed = await fetch(`${relay}/tokens/refresh`, {
      method: 'POST',
      headers: { authorization: `Bearer ${conversation.token}` },
    });
    expect(renewed.status).toBe(200);
    issued.directLineRefreshed = ((await renewed.json()) as { token: string }).token;
    const auth = { authorization: `Bearer ${conversation.token}` };
    const activitiesUrl = `${relay}/conversations/${conversation.conversationId}/activities`;

    // A message the inspection bot (stock botbuilder, app password) answers through the connector.
    const sent = await post(activitiesUrl, { type: 'message', from: { id: BOT_USER }, text: 'help' }, auth);
    expect(sent.status).toBe(200);
    type Page = { activities: Array<{ from: { id: string }; attachments?: Array<{ contentUrl?: string }> }> };
    const page = (): Promise<Page> =>
      fetch(activitiesUrl, { headers: auth }).then((r) => r.json() as Promise<Page>);
    await waitFor(
      async () => ((await page()).activities.some((a) => a.from.id === 'inspection-bot') ? true : undefined),
      "the inspection bot's answer",
    );

    // An upload, and its download URL with its ?t= token.
    const form = new FormData();
    form.append(
      'activity',
      new Blob([json({ type: 'message', from: { id: BOT_USER }, text: 'photo' })], {
        type: 'application/vnd.microsoft.activity',
      }),
      'blob',
    );
    form.append('file', new Blob([Buffer.from('log secrets file')], { type: 'image/png' }), 'photo.png');
    const uploaded = await fetch(
      `${relay}/conversations/${conversation.conversationId}/upload?userId=${BOT_USER}`,
      { method: 'POST', headers: auth, body: form },
    );
    expect(uploaded.status).toBe(200);
    const contentUrl = await waitFor(
      async () =>
        (await page()).activities
          .flatMap((a) => a.attachments ?? [])
          .find((a) => a.contentUrl?.includes('?t='))?.contentUrl,
      'the upload in the conversation',
    );
    issued.uploadToken = new URL(contentUrl).searchParams.get('t') ?? '';
    expect((await fetch(contentUrl)).status).toBe(200);

    // The connector's token endpoint with the app password (the bot did the same to answer).
    const tokenResponse = await fetch(`${connector}/botframework.com/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: appId,
        client_secret: secrets.appPassword,
        scope: SCOPE,
      }).toString(),
    });
    expect(tokenResponse.status).toBe(200);
    issued.connectorAccessToken = ((await tokenResponse.json()) as { access_token: string }).access_token;

    // AI services: a translation with a resource key (the upstream double gets its own key), a token exchange.
    const translated = await fetch(`${connector}/translate?api-version=3.0&to=de`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': secrets.aiKey1, 'content-type': 'application/json' },
      body: json([{ Text: 'hello' }]),
    });
    expect(translated.status).toBe(200);
    expect(upstream.keysSeen).toContain(secrets.upstreamTranslatorKey);
    const exchanged = await fetch(`${connector}/sts/v1.0/issueToken`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': secrets.aiKey2 },
    });
    expect(exchanged.status).toBe(200);
    issued.aiToken = await exchanged.text();

    // A metrics scrape with its bearer token.
    expect(
      (await fetch(`${connector}/metrics`, { headers: { authorization: `Bearer ${secrets.metricsToken}` } }))
        .status,
    ).toBe(200);

    // Stop the platform so every process flushes its last lines.
    launcher.kill('SIGTERM');
    await once(launcher, 'exit');

    const lines = output.split('\n').filter((line) => line.trim() !== '');
    // The run was logged (at debug), including the requests above with their credentials redacted.
    expect(lines.length).toBeGreaterThan(50);
    for (const service of ['inspection-api', 'relay-gateway', 'connector-gateway', 'inspection-bot'])
      expect(output).toContain(`"service":"${service}"`);

    const pemBody = signingKey
      .split('\n')
      .filter((line) => line.length > 0 && !line.startsWith('-----'))
      .slice(1, -1);
    const everything: Record<string, string> = {
      ...secrets,
      ...issued,
      ...Object.fromEntries(pemBody.map((line, index) => [`connectorSigningKeyLine${index}`, line])),
      // A JWT's signature alone would let nobody forge it, but its presence means the token leaked.
      ...Object.fromEntries(
        Object.entries(issued)
          .filter(([, value]) => value.split('.').length === 3)
          .map(([name, value]) => [`${name}Signature`, value.split('.')[2] ?? '']),
      ),
    };
    const leaked = Object.entries(everything)
      .filter(([, value]) => value.length >= 16)
      .flatMap(([name, value]) => {
        const line = lines.find((candidate) => candidate.includes(value));
        return line ? [`${name} in: ${line.slice(0, 400)}`] : [];
      });
    expect(leaked).toEqual([]);
    // The credential-bearing URLs were logged, redacted (not left out).
    expect(output).toContain('[redacted]');
    expect(Object.keys(issued).length).toBeGreaterThanOrEqual(10);
  }, 240_000);
});
