import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo } from 'node:net';
import { ParityHarness, wireExchange } from './parity';

/** A loopback server standing in for one path; it answers what `respond` writes. */
async function serve(respond: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(respond);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Answers with headers named as given (case and order kept), the request's id and a body echoing what was sent. */
function echo(serverName: string, seen: IncomingMessage[] = []): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    seen.push(request);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(201, [
        'X-Second',
        'b',
        'content-type',
        'application/json',
        'Server-Timing',
        serverName,
        'X-Request-Id',
        String(request.headers['x-request-id']),
      ]);
      response.end(
        JSON.stringify({ id: `${serverName}|0000007`, got: Buffer.concat(chunks).toString('utf8') }),
      );
    });
  };
}

describe('wireExchange', () => {
  it('reads the status, every header but Date in wire order and case, and the whole body', async () => {
    const { url, server } = await serve(echo('one'));
    try {
      const answer = await wireExchange(url, {
        method: 'POST',
        path: '/a?b=1',
        headers: { 'X-Request-Id': 'r-1' },
        body: 'hello',
      });
      expect(answer).toEqual({
        status: 201,
        headers: [
          'X-Second: b',
          'content-type: application/json',
          'Server-Timing: one',
          'X-Request-Id: r-1',
          'Connection: close',
          'Transfer-Encoding: chunked',
        ],
        body: '{"id":"one|0000007","got":"hello"}',
      });
    } finally {
      await close(server);
    }
  });
});

describe('ParityHarness', () => {
  it('sends the same request to the framework alone and to the app, masking only what is declared', async () => {
    const seen: IncomingMessage[] = [];
    const fast = await serve(echo('fast', seen));
    const framework = echo('framework', seen);
    const harness = await ParityHarness.start(
      fast.url,
      { getHttpAdapter: () => ({ getInstance: () => framework }) },
      { maskHeaders: ['server-timing'], body: (body) => body.replace(/^\{"id":"\w+/, '{"id":"<name>') },
    );
    try {
      const pair = await harness.both({ method: 'POST', path: '/send', body: 'x' });
      expect(pair.fast).toEqual(pair.framework);
      expect(pair.fast.headers).toContain('Server-Timing: <server-timing>');
      expect(pair.fast.headers).toContain('X-Request-Id: parity-check');
      expect(pair.fast.body).toBe('{"id":"<name>|0000007","got":"x"}');
      // The framework first, then the app; both got the app's Host.
      expect(seen.map((request) => request.headers.host)).toEqual([
        new URL(fast.url).host,
        new URL(fast.url).host,
      ]);
      expect(harness.frameworkUrl).not.toBe(fast.url);
    } finally {
      await harness.close();
      await close(fast.server);
    }
  });

  it('shows a difference that is not masked', async () => {
    const fast = await serve(echo('fast'));
    const harness = await ParityHarness.start(fast.url, {
      getHttpAdapter: () => ({ getInstance: () => echo('framework') }),
    });
    try {
      const pair = await harness.both({ path: '/send' });
      expect(pair.fast.headers).toContain('Server-Timing: fast');
      expect(pair.framework.headers).toContain('Server-Timing: framework');
      expect(pair.fast).not.toEqual(pair.framework);
    } finally {
      await harness.close();
      await close(fast.server);
    }
  });
});
