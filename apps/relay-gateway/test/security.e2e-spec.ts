import { type Activity } from '@fieldops/contracts';
import { capturingLogger, slowHeaders, trickleRequest } from '@fieldops/platform';
import { auth, type Fixture, SECRET, startFixture, startRelay, waitFor } from './support/relay-harness';

/** Probes of the outside security review (issue 15), replayed against relay-gateway so none can come back. */
describe('relay-gateway security', () => {
  let fixture: Fixture;

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => fixture.close());

  async function start(): Promise<{ conversationId: string; token: string }> {
    const response = await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) });
    return (await response.json()) as { conversationId: string; token: string };
  }

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
