import { type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { type ArgumentsHost, type CanActivate, type ExceptionFilter, HttpException } from '@nestjs/common';
import express, { type Response } from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { HttpMetrics } from '../metrics/http-metrics';
import { HttpFront } from './http-front';

class ItemsController {
  post(): void {}
}

/** A real server: the front with a hot POST /items/{id}, then an Express app with the parser and a route. */
async function serve(
  guard: CanActivate,
): Promise<{ server: Server; url: string; registry: Registry; lines: string[] }> {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  const registry = new Registry();
  const front = new HttpFront(logger, new HttpMetrics(registry));
  front.setHeaders(['X-Content-Type-Options', 'nosniff']);
  front.use((_request, response, next) => {
    response.setHeader('X-Operation', 'op');
    next();
  });
  const parseJson = express.json({ limit: 64 });
  const filter: ExceptionFilter = {
    catch(exception: unknown, host: ArgumentsHost) {
      const status = exception instanceof HttpException ? exception.getStatus() : 500;
      // Express's response, as on the framework's route.
      host.switchToHttp().getResponse<Response>().status(status).json({ filtered: status });
    },
  };
  front.post({
    controller: ItemsController,
    match: (path) => {
      const match = /^\/items\/([^/]+)$/i.exec(path);
      return match
        ? { params: { id: match[1] }, route: '/items/:id', handler: ItemsController.prototype.post }
        : undefined;
    },
    guards: [guard],
    parseJson,
    filter,
    serve: (request, params) =>
      Promise.resolve({
        status: 200,
        body: { by: 'front', id: params.id, body: request.body, express: 'get' in request },
        headers: ['Server-Timing', 'x;dur=1'],
      }),
  });
  const app = express();
  app.use(parseJson);
  app.post('/items/:id', (_request, response) => {
    response.json({ by: 'router' });
  });
  const server = createServer(front.listener(app));
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, registry, lines };
}

describe('HttpFront', () => {
  let server: Server;
  let url: string;
  let registry: Registry;
  let lines: string[];
  let allowed: boolean | 'refuse' = true;

  beforeAll(async () => {
    ({ server, url, registry, lines } = await serve({
      canActivate: () => {
        if (allowed === 'refuse') throw new HttpException('no', 401);
        return allowed;
      },
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    allowed = true;
  });

  async function post(
    path: string,
    body: string,
    contentType = 'application/json',
  ): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, 'X-Request-Id': 'req-1' },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
    };
  }

  it('serves its route before Express: decoded parameters, parsed body, its headers, one answer without ETag', async () => {
    const answer = await post('/items/a%20b', '{"x":1}', 'application/json; charset=utf-8');
    expect(answer).toMatchObject({
      status: 200,
      body: { by: 'front', id: 'a b', body: { x: 1 }, express: false },
    });
    expect(answer.headers.get('etag')).toBeNull();
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-operation')).toBe('op');
    expect(answer.headers.get('x-request-id')).toBe('req-1');
    expect(answer.headers.get('server-timing')).toBe('x;dur=1');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('logs the access line and counts the request under its route pattern', async () => {
    lines.length = 0;
    await post('/items/1', '{}');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.req);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { id: 'req-1', method: 'POST', url: '/items/1' },
      res: { statusCode: 200 },
    });
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/items\/:id",status="200"\} [1-9]/);
  });

  it('leaves other paths, bodies and undecodable parameters to Express', async () => {
    expect(await post('/items/a/b', '{}')).toMatchObject({ status: 404 });
    expect(await post('/items/1', 'x', 'text/plain')).toMatchObject({ body: { by: 'router' } });
    expect(await post('/items/%E0%A4%A', '{}')).toMatchObject({ status: 400 });
  });

  it("hands a guard's refusal and a parser's to the filter, with Express's response and the app's headers", async () => {
    allowed = 'refuse';
    const refused = await post('/items/1', '{}');
    expect(refused).toMatchObject({ status: 401, body: { filtered: 401 } });
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refused.headers.get('x-request-id')).toBe('req-1');
    allowed = false;
    expect(await post('/items/1', '{}')).toMatchObject({ status: 403, body: { filtered: 403 } });
    allowed = true;
    expect(await post('/items/1', '{"x":')).toMatchObject({ status: 400, body: { filtered: 400 } });
    expect(await post('/items/1', JSON.stringify({ x: 'y'.repeat(100) }))).toMatchObject({
      status: 413,
      body: { filtered: 413 },
    });
  });
});
