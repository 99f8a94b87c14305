import { type IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { type Activity } from '@fieldops/contracts';
import { requestWithHost } from '@fieldops/testing';
import { auth, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

interface Started {
  conversationId: string;
  token: string;
}

/** Probes of "trust under attack and failure" (issue 22), replayed against relay-gateway so none can come back. */
describe('relay-gateway under attack and failure', () => {
  describe('item 10: streams per conversation are capped (RELAY_MAX_STREAMS_PER_CONVERSATION)', () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await startFixture({ RELAY_MAX_STREAMS_PER_CONVERSATION: '2' });
    });
    afterAll(() => fixture?.close());

    /** Opens a stream: the open socket, or the status and body of a refused upgrade. */
    const open = (url: string): Promise<WebSocket | { status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_request, response: IncomingMessage) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        socket.once('error', reject);
      });

    it('one stream over the cap is refused with 429 TooManyRequests; a closed one frees its place', async () => {
      const { streamUrl } = (await (
        await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
      ).json()) as { streamUrl: string };
      const first = await open(streamUrl);
      const second = await open(streamUrl);
      expect(first).toBeInstanceOf(WebSocket);
      expect(second).toBeInstanceOf(WebSocket);
      const third = await open(streamUrl);
      expect(third).not.toBeInstanceOf(WebSocket);
      const refused = third as { status: number; body: string };
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'TooManyRequests' } });
      // Another conversation is not affected.
      const other = (await (
        await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
      ).json()) as { streamUrl: string };
      const elsewhere = await open(other.streamUrl);
      expect(elsewhere).toBeInstanceOf(WebSocket);
      (elsewhere as WebSocket).close();
      const closed = new Promise((resolve) => (first as WebSocket).once('close', resolve));
      (first as WebSocket).close();
      await closed;
      await waitFor(async () => {
        const again = await open(streamUrl);
        if (again instanceof WebSocket) return again;
        return undefined;
      }, 'a stream in the freed place').then((socket) => socket.close());
      (second as WebSocket).close();
    });
  });

  describe('item 9: a token tied to a session (refreshableUntil) is not refreshed past its end', () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await startFixture();
    });
    afterAll(() => fixture?.close());

    const generate = (body: unknown): Promise<Response> =>
      fetch(`${fixture.base}/tokens/generate`, {
        method: 'POST',
        headers: auth(SECRET),
        body: JSON.stringify(body),
      });
    const refresh = (token: string): Promise<Response> =>
      fetch(`${fixture.base}/tokens/refresh`, { method: 'POST', headers: auth(token) });
    type Issued = { token: string; expires_in: number };

    it('the token and every refresh of it expire by the ceiling; past it, refresh is refused', async () => {
      const until = Date.now() + 3_000;
      const generated = await generate({
        user: { id: 'dl_9' },
        refreshableUntil: new Date(until).toISOString(),
      });
      expect(generated.status).toBe(200);
      const first = (await generated.json()) as Issued;
      expect(first.expires_in).toBeLessThanOrEqual(3);
      const renewed = await refresh(first.token);
      expect(renewed.status).toBe(200);
      const second = (await renewed.json()) as Issued;
      expect(second.expires_in).toBeLessThanOrEqual(3);
      // Once the ceiling has passed (waited for, not timed), no token of the chain refreshes any more.
      await new Promise((resolve) => setTimeout(resolve, until + 1_500 - Date.now()));
      const late = await refresh(second.token);
      expect(late.status).toBe(403);
      expect(await late.json()).toMatchObject({ error: { code: 'TokenExpired' } });
      // Without a ceiling a token refreshes as Direct Line's do.
      const plain = (await (await generate({ user: { id: 'dl_9' } })).json()) as Issued;
      expect(plain.expires_in).toBeGreaterThan(3);
      expect((await refresh(plain.token)).status).toBe(200);
    });

    it('a refreshableUntil that is not a future ISO 8601 instant is a 400 BadArgument', async () => {
      for (const refreshableUntil of ['tomorrow', 1_900_000_000, new Date(Date.now() - 1000).toISOString()]) {
        const response = await generate({ refreshableUntil });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: { code: 'BadArgument' } });
      }
    });
  });

  describe('item 10: UTF-8 file names', () => {
    let fixture: Fixture;
    let started: Started;
    beforeAll(async () => {
      fixture = await startFixture();
      started = (await (
        await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
      ).json()) as Started;
    });
    afterAll(() => fixture?.close());

    const upload = (init: RequestInit) =>
      fetch(`${fixture.base}/conversations/${started.conversationId}/upload?userId=u1`, {
        method: 'POST',
        ...init,
        headers: { Authorization: `Bearer ${started.token}`, ...(init.headers as Record<string, string>) },
      });
    const attachmentNames = async (id: string): Promise<string[]> => {
      const received = await waitFor<Activity>(
        () => fixture.bot.received.find((activity) => activity.id === id),
        'the upload at the bot',
      );
      return (received.attachments ?? []).map((attachment) => attachment.name ?? '');
    };

    it('multipart file names sent as UTF-8 (browsers, DirectLineJS) keep their characters', async () => {
      const form = new FormData();
      form.append('file', new Blob(['png'], { type: 'image/png' }), '照片.png');
      form.append('file', new Blob(['txt'], { type: 'text/plain' }), 'Grüße.txt');
      const response = await upload({ body: form });
      expect(response.status).toBe(200);
      const { id } = (await response.json()) as { id: string };
      expect(await attachmentNames(id)).toEqual(['照片.png', 'Grüße.txt']);
    });

    it("a single file's Content-Disposition name in UTF-8 bytes, or as filename*=, keeps its characters", async () => {
      const utf8AsSent = Buffer.from('照片.png', 'utf8').toString('latin1'); // the raw bytes on the wire
      for (const disposition of [
        `attachment; filename="${utf8AsSent}"`,
        `attachment; filename*=UTF-8''${encodeURIComponent('照片.png')}`,
      ]) {
        const response = await upload({
          headers: { 'Content-Type': 'image/png', 'Content-Disposition': disposition },
          body: Buffer.from('png'),
        });
        expect(response.status).toBe(200);
        const { id } = (await response.json()) as { id: string };
        expect(await attachmentNames(id)).toEqual(['照片.png']);
      }
      // A name that is not UTF-8 stays as sent (Latin-1), and a malformed filename*= is no 500.
      const latin1 = await upload({
        headers: {
          'Content-Type': 'text/plain',
          'Content-Disposition': 'attachment; filename="caf\xe9.txt"',
        },
        body: 'x',
      });
      expect(await attachmentNames(((await latin1.json()) as { id: string }).id)).toEqual(['café.txt']);
      const malformed = await upload({
        headers: {
          'Content-Type': 'text/plain',
          'Content-Disposition': `attachment; filename*=UTF-8''%E0%A4%A; filename="plain.txt"`,
        },
        body: 'x',
      });
      expect(malformed.status).toBe(200);
      expect(await attachmentNames(((await malformed.json()) as { id: string }).id)).toEqual(['plain.txt']);
    });
  });

  describe('item 10: a Host header outside RELAY_ALLOWED_HOSTS never becomes a streamUrl', () => {
    /** POST …/conversations with exactly the given Host header. */
    const startWithHost = (base: string, host: string): Promise<{ status: number; body: string }> =>
      requestWithHost(`${base}/conversations`, host, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-length': '0' },
      });

    describe('without RELAY_PUBLIC_URL (local names allowed by default)', () => {
      let fixture: Fixture;
      beforeAll(async () => {
        fixture = await startFixture();
      });
      afterAll(() => fixture?.close());

      it("a stranger's Host is 400 BadArgument, with no URL on it", async () => {
        const refused = await startWithHost(fixture.base, 'attacker.example:443');
        expect(refused.status).toBe(400);
        expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'BadArgument' } });
        expect(refused.body).not.toContain('attacker.example/');
      });

      it('a local name is answered with a streamUrl on it', async () => {
        const port = new URL(fixture.base).port;
        const started = await startWithHost(fixture.base, `localhost:${port}`);
        expect(started.status).toBe(201);
        expect((JSON.parse(started.body) as { streamUrl: string }).streamUrl).toMatch(
          new RegExp(`^ws://localhost:${port}/v3/directline/conversations/`),
        );
      });
    });

    describe('with RELAY_ALLOWED_HOSTS or RELAY_PUBLIC_URL', () => {
      let listed: Fixture;
      let configured: Fixture;
      beforeAll(async () => {
        listed = await startFixture({ RELAY_ALLOWED_HOSTS: '.chat.example.org' });
        configured = await startFixture({ RELAY_PUBLIC_URL: 'https://chat.example.com' });
      });
      afterAll(async () => {
        await listed?.close();
        await configured?.close();
      });

      it('a listed domain (and its subdomains) is answered; 127.0.0.1 is then no longer', async () => {
        const started = await startWithHost(listed.base, 'eu.chat.example.org');
        expect(started.status).toBe(201);
        expect((JSON.parse(started.body) as { streamUrl: string }).streamUrl).toMatch(
          /^ws:\/\/eu\.chat\.example\.org\/v3\/directline\//,
        );
        expect((await startWithHost(listed.base, '127.0.0.1')).status).toBe(400);
      });

      it('the configured public URL is used whatever Host the request names', async () => {
        const started = await startWithHost(configured.base, 'attacker.example');
        expect(started.status).toBe(201);
        expect((JSON.parse(started.body) as { streamUrl: string }).streamUrl).toMatch(
          /^wss:\/\/chat\.example\.com\/v3\/directline\/conversations\//,
        );
      });
    });
  });
});
