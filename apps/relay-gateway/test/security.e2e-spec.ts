import { type Activity } from '@fieldops/contracts';
import { auth, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

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
