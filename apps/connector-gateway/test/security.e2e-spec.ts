import { resolve } from 'node:path';
import { chunkedUpload, slowHeaders, trickleRequest } from '@fieldops/testing';
import { startConnectorGateway } from '../src';
import { type GatewayFixture, startGatewayFixture } from './support/gateway';
import {
  type BotConversation,
  type PlatformBot,
  type RunningPlatform,
  startBotConversation,
} from './support/platform';

/** Probes of the outside security review (issue 15), replayed against connector-gateway so none can come back. */
describe('connector-gateway security', () => {
  let fixture: BotConversation;
  let platform: RunningPlatform;
  let bot: PlatformBot;
  let token: string;

  beforeAll(async () => {
    fixture = await startBotConversation('sec');
    ({ platform, bot, token } = fixture);
  });
  afterAll(() => fixture.close());

  async function conversation(): Promise<string> {
    const response = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bot.secret}` },
    });
    return ((await response.json()) as { conversationId: string }).conversationId;
  }

  async function upload(conversationId: string, data: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${platform.connector.url}/v3/conversations/${conversationId}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(data),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { id: string }).id;
  }

  const view = (id: string, viewId: string): Promise<Response> =>
    fetch(`${platform.connector.url}/v3/attachments/${id}/views/${viewId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });

  describe('finding 1: attachment views never run as pages of the gateway origin', () => {
    it.each([
      ['text/html', 'evil.html', '<script>alert(document.domain)</script>'],
      [
        'image/svg+xml',
        'evil.svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ],
    ])('%s is a sandboxed, nosniff download', async (type, name, content) => {
      const id = await upload(await conversation(), {
        type,
        name,
        originalBase64: Buffer.from(content).toString('base64'),
      });
      const response = await view(id, 'original');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="?evil\.(html|svg)"?$/,
      );
      expect(await response.text()).toBe(content);
    });

    it('an inert image (png) stays inline, still nosniff and sandboxed', async () => {
      const id = await upload(await conversation(), {
        type: 'image/png',
        name: 'pic.png',
        originalBase64: Buffer.from([137, 80, 78, 71]).toString('base64'),
      });
      const response = await view(id, 'original');
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-disposition')).toBe('inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    });
  });

  describe('finding 12: connector fidelity', () => {
    it('GET /v3/attachments/{malformed id} without Authorization answers 401 first', async () => {
      for (const path of ['/v3/attachments/not-an-id', '/v3/attachments/not-an-id/views/original']) {
        const response = await fetch(`${platform.connector.url}${path}`);
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('Unauthorized');
      }
      const authorized = await fetch(`${platform.connector.url}/v3/attachments/not-an-id`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(authorized.status).toBe(404);
    });

    it('thumbnailBase64 is stored and served at views/thumbnail; 404 only when none was sent', async () => {
      const conversationId = await conversation();
      const original = Buffer.from([137, 80, 78, 71, 1, 2, 3, 4]);
      const thumbnail = Buffer.from([137, 80, 78, 71, 9]);
      const id = await upload(conversationId, {
        type: 'image/png',
        name: 'photo.png',
        originalBase64: original.toString('base64'),
        thumbnailBase64: thumbnail.toString('base64'),
      });
      const info = await fetch(`${platform.connector.url}/v3/attachments/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await info.json()).toEqual({
        name: 'photo.png',
        type: 'image/png',
        views: [
          { viewId: 'original', size: original.length },
          { viewId: 'thumbnail', size: thumbnail.length },
        ],
      });
      const served = await view(id, 'thumbnail');
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(thumbnail);
      expect(Buffer.from(await (await view(id, 'original')).arrayBuffer())).toEqual(original);

      const without = await upload(conversationId, {
        type: 'image/png',
        originalBase64: original.toString('base64'),
      });
      expect((await view(without, 'thumbnail')).status).toBe(404);
    });
  });
});

describe('security review: connector-gateway', () => {
  let fixture: GatewayFixture;

  beforeAll(async () => {
    fixture = await startGatewayFixture({ HTTP_HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(() => fixture.gateway.close());

  describe('finding 6: security headers', () => {
    it('sends nosniff, frame and referrer policies and a CSP on answers and errors', async () => {
      for (const response of [
        await fetch(`${fixture.gateway.url}/v1/.well-known/openidconfiguration`),
        await fetch(`${fixture.gateway.url}/v3/conversations`, { method: 'POST' }),
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
      const https = await startGatewayFixture({ CONNECTOR_PUBLIC_URL: 'https://connector.example.com' });
      try {
        const response = await fetch(`${https.gateway.url}/healthz`);
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      } finally {
        await https.gateway.close();
      }
    });
  });

  describe('finding 10: slow headers', () => {
    it('cuts off a client that trickles its headers after the headers deadline (408)', async () => {
      const chunks = slowHeaders('POST /v3/conversations HTTP/1.1');
      const slow = await trickleRequest(fixture.gateway.port, chunks, 200, 8_000);
      expect(slow.closedAfterMs).toBeDefined();
      expect(slow.closedAfterMs).toBeLessThan(3_000);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    }, 15_000);
  });
});

/** `depth` objects nested in each other: `{"a":{"a":…1…}}`. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('security review: connector-gateway input (findings 4, 9, 11)', () => {
  let fixture: BotConversation;
  let platform: RunningPlatform;
  let bot: PlatformBot;
  let token: string;
  let conversationId: string;

  beforeAll(async () => {
    fixture = await startBotConversation('input');
    ({ platform, bot, token, conversationId } = fixture);
  });
  afterAll(() => fixture.close());

  const send = (body: string | Buffer): Promise<Response> =>
    fetch(`${platform.connector.url}/v3/conversations/${conversationId}/activities`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
    });

  async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
    const body = (await response.json()) as { error: { code: string; message: string } };
    return { status: response.status, code: body.error.code, message: body.error.message };
  }

  const activity = (text: string): string =>
    JSON.stringify({ type: 'message', from: { id: bot.appId }, text });

  it('finding 4: 10,000 nested objects in an activity are 400 BadSyntax, never 500', async () => {
    const response = await send(`{"type":"message","text":"x","value":${nested(10_000)}}`);
    expect(await errorOf(response)).toEqual({
      status: 400,
      code: 'BadSyntax',
      message: expect.stringMatching(/deeper than 64 levels/),
    });
    expect((await send(`{"type":"message","text":"x","value":${nested(62)}}`)).status).toBe(200);
  });

  it('finding 11: invalid UTF-8 is 400 BadSyntax (not stored as U+FFFD), and so is a NUL character', async () => {
    const invalid = Buffer.concat([
      Buffer.from('{"type":"message","text":"a'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    expect(await errorOf(await send(invalid))).toEqual({
      status: 400,
      code: 'BadSyntax',
      message: expect.stringMatching(
        /not valid UTF-8 \(byte 0xc3 at position 27: invalid continuation byte\)/,
      ),
    });
    expect(await errorOf(await send(activity('before\u0000after')))).toEqual({
      status: 400,
      code: 'BadSyntax',
      message: expect.stringMatching(/NUL character/),
    });
    expect((await send(activity('clean text'))).status).toBe(200);
  });

  it.each([
    ['/v3/conversations/c1/activities', 'Content-Type: application/json', 401, '"code":"Unauthorized"'],
    ['/v3/conversations/c1/attachments', 'Content-Type: application/json', 401, '"code":"Unauthorized"'],
    ['/translate?api-version=3.0&to=de', 'Content-Type: application/json', 401, '"code":401000'],
  ])(
    'finding 9: an unauthenticated chunked 50 MB POST to %s is refused after its headers, unread, and closed',
    async (path, contentType, status, code) => {
      const exchange = await chunkedUpload(
        platform.connector.port,
        [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${platform.connector.port}`, contentType].join('\r\n'),
        50 * 1024 * 1024,
      );
      expect(exchange.received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.received).toContain(code);
      expect(exchange.bodyBytesBeforeAnswer).toBe(64 * 1024);
      expect(exchange.closedAfterMs).toBeDefined();
      expect(exchange.bodyBytesWritten).toBeLessThan(20 * 1024 * 1024);
    },
    30_000,
  );

  it('finding 9: authenticated large-but-allowed bodies are read (a 3 MB base64 upload), oversize is 413', async () => {
    const upload = await fetch(`${platform.connector.url}/v3/conversations/${conversationId}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        type: 'application/octet-stream',
        name: 'big.bin',
        originalBase64: Buffer.alloc(3 * 1024 * 1024, 7).toString('base64'),
      }),
    });
    expect(upload.status).toBe(200);
    const oversize = await send(activity('x'.repeat(9 * 1024 * 1024)));
    expect((await errorOf(oversize)).status).toBe(413);
  });
});

describe('security review: connector-gateway, finding 13: /metrics', () => {
  const metricsToken = 'connector-metrics-token-0123456789';

  it('with METRICS_BEARER_TOKEN: 401 in the connector format without the token, 200 with it', async () => {
    const { gateway } = await startGatewayFixture({ METRICS_BEARER_TOKEN: metricsToken });
    try {
      const open = await fetch(`${gateway.url}/metrics`);
      expect(open.status).toBe(401);
      expect(open.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(((await open.json()) as { error: { code: string } }).error.code).toBeTruthy();
      const scraped = await fetch(`${gateway.url}/metrics`, {
        headers: { Authorization: `Bearer ${metricsToken}` },
      });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('service="connector-gateway"');
    } finally {
      await gateway.close();
    }
  });

  it('with METRICS_PORT: absent from the app port, served on the metrics port only', async () => {
    const { gateway } = await startGatewayFixture({ METRICS_PORT: '0' });
    try {
      expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
      const scraped = await fetch(gateway.metricsUrl ?? 'http://127.0.0.1:1/metrics');
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('service="connector-gateway"');
    } finally {
      await gateway.close();
    }
  });
});

describe('issue 22, item 5: published secrets are refused outside tests', () => {
  it("refuses a change-me internal key and the example configuration's bot password, naming each", async () => {
    const started = startConnectorGateway({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        CONNECTOR_GATEWAY_PORT: '0',
        CONNECTOR_INTERNAL_KEY: 'change-me-internal-key-0123456789abcdef',
      },
    });
    await expect(started).rejects.toThrow(/CONNECTOR_INTERNAL_KEY: holds a published example value/);
    const refused = startConnectorGateway({
      environment: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        CONNECTOR_GATEWAY_PORT: '0',
        PLATFORM_CONFIG: resolve(__dirname, '../../../infra/config/platform.example.yaml'),
      },
    });
    await expect(refused).rejects.toThrow(/bots\.0\.appPassword: holds a published example value/);
    await expect(refused).rejects.toThrow(
      /aiServices\.resources\.0\.keys\.0: holds a published example value/,
    );
  });
});
