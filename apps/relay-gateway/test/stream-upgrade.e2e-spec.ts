import { connect } from 'node:net';
import { capturingLogger } from '@fieldops/testing';
import { auth, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

/**
 * Sends a WebSocket upgrade request for `path` on a raw connection; answers what the relay wrote back: up to the end
 * of the connection for a refusal, up to the end of the 101's headers for an accepted upgrade (then closes).
 */
function upgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      );
    });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.startsWith('HTTP/1.1 101 ') && received.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/** The header `name` of a raw answer (first occurrence), or undefined. */
function header(answer: string, name: string): string | undefined {
  const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
  const line = head.split('\r\n').find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(line.indexOf(':') + 1).trim();
}

interface AccessLine {
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
}

/**
 * The stream's upgrade gets what every HTTP request gets: a request id, one access line, the request metrics under
 * its route pattern, and a refusal rendered as the HTTP routes render theirs (status line with Node's reason phrase,
 * the security headers, the Direct Line error body).
 */
describe('stream upgrades', () => {
  let fixture: Fixture;
  let lines: string[];

  beforeAll(async () => {
    const captured = capturingLogger('relay-gateway');
    lines = captured.lines;
    fixture = await startFixture({}, captured.logger);
  });
  afterAll(() => fixture?.close());

  function accessLineOf(id: string): Promise<AccessLine> {
    return waitFor(
      () =>
        lines
          .map((line) => JSON.parse(line) as AccessLine)
          .find((line) => line.req?.id === id && line.msg === 'request completed'),
      `the access line of ${id}`,
    );
  }

  async function metric(status: number): Promise<number> {
    const text = await (await fetch(`${fixture.relay.url}/metrics`)).text();
    const line = text
      .split('\n')
      .find(
        (entry) =>
          entry.startsWith('http_requests_total{') &&
          entry.includes('method="GET"') &&
          entry.includes('route="/v3/directline/conversations/:conversationId/stream"') &&
          entry.includes(`status="${status}"`),
      );
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  it.each([
    ['/v3/directline/conversations/c1/stream?watermark=abc', '400 Bad Request'],
    ['/v3/directline/conversations/c1/stream?t=not-a-token', '403 Forbidden'],
    ['/v3/directline/elsewhere', '404 Not Found'],
  ])(
    'refuses %s: %s, with the request id, the security headers and the error body',
    async (path, statusLine) => {
      const answer = await upgrade(fixture.relay.port, path);
      expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${statusLine}`);
      expect(header(answer, 'X-Request-Id')).toMatch(/^[\w-]{36}$/);
      expect(header(answer, 'X-Content-Type-Options')).toBe('nosniff');
      expect(header(answer, 'Content-Type')).toBe('application/json; charset=utf-8');
      expect(header(answer, 'Connection')).toBe('close');
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
      expect(typeof body.error.code).toBe('string');
    },
  );

  it('an accepted upgrade: 101 with the request id, one access line (token redacted), counted in the metrics', async () => {
    const started = await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) });
    const { streamUrl } = (await started.json()) as { streamUrl: string };
    const path = new URL(streamUrl).pathname + new URL(streamUrl).search;
    const before = await metric(101);

    const answer = await upgrade(fixture.relay.port, path, { 'X-Request-Id': 'upgrade-accepted-1' });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    expect(header(answer, 'X-Request-Id')).toBe('upgrade-accepted-1');

    const line = await accessLineOf('upgrade-accepted-1');
    expect(line.req).toMatchObject({ method: 'GET' });
    expect(line.req?.url).toContain('t=[redacted]');
    expect(line.res).toEqual({ statusCode: 101 });
    expect(await metric(101)).toBe(before + 1);
  });

  it('a refused upgrade: its access line has the request id and status, and the metrics count it', async () => {
    const before = await metric(403);
    const answer = await upgrade(fixture.relay.port, '/v3/directline/conversations/c1/stream?t=forged', {
      'X-Request-Id': 'upgrade-refused-1',
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(header(answer, 'X-Request-Id')).toBe('upgrade-refused-1');
    const line = await accessLineOf('upgrade-refused-1');
    expect(line.res).toEqual({ statusCode: 403 });
    expect(line.req?.url).toBe('/v3/directline/conversations/c1/stream?t=[redacted]');
    expect(await metric(403)).toBe(before + 1);
  });
});
