import { type AddressInfo } from 'node:net';
import { type Server } from 'node:http';
import { type ArgumentsHost, type CanActivate, type ExceptionFilter, HttpException } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { preRoutedJsonPost, writeJsonAnswer } from './http-front';

class ItemsController {
  post(): void {}
}

/** A real Express app: the pre-routed POST /items/{id}, then the parser and a "framework" route for the rest. */
async function serve(guard: CanActivate): Promise<{ server: Server; url: string }> {
  const app = express();
  const parseJson = express.json({ limit: 64 });
  const filter: ExceptionFilter = {
    catch(exception: unknown, host: ArgumentsHost) {
      const status = exception instanceof HttpException ? exception.getStatus() : 500;
      writeJsonAnswer(host.switchToHttp().getResponse<Response>(), status, { filtered: status });
    },
  };
  app.use(
    preRoutedJsonPost({
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
      serve: (request, response, params) => {
        writeJsonAnswer(response, 200, {
          by: 'pre-routed',
          id: params.id,
          body: request.body as unknown,
          route: (request as Request & { route: { path: string } }).route.path,
        });
        return Promise.resolve();
      },
    }),
  );
  app.use(parseJson);
  app.post('/items/:id', (_request, response) => {
    response.json({ by: 'router' });
  });
  app.use(
    (error: Error & { status?: number }, _request: Request, response: Response, _next: NextFunction) => {
      response.status(error.status ?? 500).json({ parser: error.status });
    },
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('preRoutedJsonPost', () => {
  let server: Server;
  let url: string;
  let allowed = true;

  beforeAll(async () => {
    ({ server, url } = await serve({
      canActivate: () => {
        if (!allowed) throw new HttpException('no', 401);
        return true;
      },
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    allowed = true;
  });

  async function post(path: string, body: string, contentType = 'application/json'): Promise<unknown> {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
    };
  }

  it('serves its route with the decoded parameters, the parsed body and the route pattern, in one answer without ETag', async () => {
    expect(await post('/items/a%20b', '{"x":1}', 'application/json; charset=utf-8')).toEqual({
      status: 200,
      etag: null,
      body: { by: 'pre-routed', id: 'a b', body: { x: 1 }, route: '/items/:id' },
    });
  });

  it('leaves other paths, bodies and undecodable parameters to the router', async () => {
    expect(await post('/items/a/b', '{}')).toMatchObject({ status: 404 });
    expect(await post('/items/1', 'x', 'text/plain')).toMatchObject({ body: { by: 'router' } });
    expect(await post('/items/%E0%A4%A', '{}')).toMatchObject({ status: 400 });
  });

  it('hands a guard refusal to the filter and a parser error to the error handler', async () => {
    allowed = false;
    expect(await post('/items/1', '{}')).toMatchObject({ status: 401, body: { filtered: 401 } });
    allowed = true;
    expect(await post('/items/1', '{"x":')).toMatchObject({ status: 400, body: { parser: 400 } });
    expect(await post('/items/1', JSON.stringify({ x: 'y'.repeat(100) }))).toMatchObject({
      status: 413,
      body: { parser: 413 },
    });
  });
});
