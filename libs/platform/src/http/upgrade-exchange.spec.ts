import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { type Duplex } from 'node:stream';
import { type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import pino from 'pino';
import { Registry } from 'prom-client';
import { HttpMetrics } from '../metrics/http-metrics';
import { HttpFront } from './http-front';

/** A filter writing `{"refused": message}` with the error's status, with Node's response API (as the apps' do). */
const filter: ExceptionFilter = {
  catch(error: unknown, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    const { status, message } = error as { status: number; message: string };
    const body = JSON.stringify({ refused: message });
    response.writeHead(status, ['Content-Type', 'application/json', 'Content-Length', String(body.length)]);
    response.end(body);
  },
};

/** Sends an upgrade request for `path` on a raw connection; resolves with everything the server wrote. */
function upgrade(port: number, path: string, id?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `${id ? `X-Request-Id: ${id}\r\n` : ''}\r\n`,
      ),
    );
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('HttpFront.upgrade', () => {
  let server: Server;
  let port: number;
  let lines: { req: { id: string; url: string }; res: { statusCode: number }; msg: string }[];
  let registry: Registry;

  beforeEach(async () => {
    lines = [];
    registry = new Registry();
    const front = new HttpFront(
      pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as never) }),
      new HttpMetrics(registry),
    );
    front.setHeaders(['X-Content-Type-Options', 'nosniff']);
    server = createServer();
    server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
      const exchange = front.upgrade(request, socket, '/streams/:id');
      if (request.url?.startsWith('/refuse'))
        exchange.refuse(Object.assign(new Error('not here'), { status: 403 }), filter);
      else {
        // A stand-in for the WebSocket handshake: the 101 with the headers `ws` would add to.
        const headers = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade'];
        exchange.addHandshakeHeaders(headers);
        socket.end(`${headers.join('\r\n')}\r\n\r\n`);
        exchange.accepted();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  it('refuses through the filter on Node’s response: reason phrase, security headers, request id, close', async () => {
    const answer = await upgrade(port, '/refuse?t=secret', 'up-1');
    const [head, body] = answer.split('\r\n\r\n');
    const headers = head.split('\r\n');
    expect(headers[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(headers).toEqual(
      expect.arrayContaining([
        'X-Content-Type-Options: nosniff',
        'x-request-id: up-1',
        'Content-Type: application/json',
        'Connection: close',
      ]),
    );
    expect(JSON.parse(body)).toEqual({ refused: 'not here' });
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ id: 'up-1', url: '/refuse?t=[redacted]' }) as object,
        res: { statusCode: 403 },
      }),
    );
    expect(await registry.metrics()).toMatch(
      /http_requests_total\{method="GET",route="\/streams\/:id",status="403"\} 1/,
    );
  });

  it('an accepted upgrade: the request id on the 101, one access line and the metrics', async () => {
    const answer = await upgrade(port, '/streams/1');
    const id = /x-request-id: (\S+)/i.exec(answer)?.[1];
    expect(id).toMatch(/^[\w-]{36}$/);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ id, url: '/streams/1' }) as object,
        res: { statusCode: 101 },
      }),
    ]);
    expect(await registry.metrics()).toMatch(
      /http_requests_total\{method="GET",route="\/streams\/:id",status="101"\} 1/,
    );
  });
});
