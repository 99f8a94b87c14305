import { Writable } from 'node:stream';
import {
  type ArgumentsHost,
  Body,
  type CallHandler,
  type CanActivate,
  Catch,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  HttpCode,
  HttpException,
  Injectable,
  Module,
  type NestInterceptor,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Observable } from 'rxjs';
import { type HttpServiceOptions, type RunningService, startHttpService } from '../lifecycle/http-service';
import { createLogger } from '../logging/create-logger';
import { PlatformModule } from '../platform.module';
import { FastPath } from './fast-path';
import { HttpFront } from './http-front';
import { PathPattern } from './path-pattern';
import { type RouteRequest } from './route-request';

/** Lets a request through when it says `x-key: open`; what it saw is on the request. */
@Injectable()
class KeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RouteRequest & { guardSawBody?: boolean }>();
    // The body is read after the guards.
    request.guardSawBody = request.body !== undefined;
    if (request.headers['x-key'] !== 'open') throw new HttpException('closed', 401);
    return true;
  }
}

@Controller('items')
@UseGuards(KeyGuard)
class ItemsController {
  @Post(':id')
  @HttpCode(200)
  @FastPath()
  add(@Param('id') id: string, @Body() body: unknown): { id: string; body: unknown } {
    return { id, body };
  }

  @Get(':id')
  @FastPath()
  read(
    @Param('id') id: string,
    @Query() query: unknown,
    @Query('tag') tag: unknown,
  ): { id: string; query: unknown; tag: unknown } {
    if (id === 'missing') throw new HttpException('missing', 404);
    return { id, query, tag };
  }
}

@Catch()
class TestFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    const response = host.switchToHttp().getResponse<ServerResponse>();
    response.statusCode = status;
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ filtered: status }));
  }
}

class OtherInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

async function start(
  options: Partial<HttpServiceOptions> & { etag?: boolean } = {},
): Promise<RunningService> {
  const destination = new Writable({ write: (_chunk, _encoding, done) => done() });
  const logger = createLogger({ service: 'fast', destination });
  @Module({
    imports: [PlatformModule.forRoot({ service: 'fast', logger })],
    controllers: [ItemsController],
    providers: [KeyGuard, { provide: APP_FILTER, useClass: TestFilter }],
  })
  class FastModule {}
  return startHttpService({
    service: 'fast',
    module: FastModule,
    logger,
    host: '127.0.0.1',
    port: 0,
    shutdownTimeoutMs: 1000,
    bodies: { json: { limit: 1024, maxDepth: 8 } },
    ...options,
    configure: async (app) => {
      // The front writes no ETag (an app that wants Express's fails the boot, below).
      if (!options.etag) app.set('etag', false);
      await options.configure?.(app);
    },
  });
}

describe('PathPattern', () => {
  const pattern = new PathPattern('/v3/conversations/:conversationId/activities');

  it('matches as Express does: any case, one optional trailing slash, non-empty parameters', () => {
    expect(pattern.params('/v3/conversations/a%7Cb/activities')).toEqual({ conversationId: 'a%7Cb' });
    expect(pattern.matches('/V3/Conversations/x/ACTIVITIES/')).toBe(true);
    expect(pattern.matches('/v3/conversations/x/activities//')).toBe(false);
    expect(pattern.matches('/v3/conversations//activities')).toBe(false);
    expect(pattern.matches('/v3/conversations/x/activities/y')).toBe(false);
    expect(pattern.matches('/v3/conversations/x')).toBe(false);
    expect(pattern.matches('v3/conversations/x/activities')).toBe(false);
  });

  it('knows which patterns a path may match together', () => {
    const reply = new PathPattern('/v3/conversations/:conversationId/activities/:activityId');
    const history = new PathPattern('/v3/conversations/:conversationId/activities/history');
    expect(reply.overlaps(history)).toBe(true);
    expect(reply.overlaps(pattern)).toBe(false);
    expect(history.sample()).toBe('/v3/conversations/x/activities/history');
  });

  it('refuses what it does not model', () => {
    expect(() => new PathPattern('/files/*path')).toThrow(/not a literal or a plain parameter/);
  });
});

describe('@FastPath', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await start();
  });
  afterAll(() => service?.close());

  const post = (path: string, headers: Record<string, string>, body = '{"a":1}') =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });

  it('compiles the routes from the controller’s metadata', () => {
    expect(
      service.app.get(HttpFront).fastRoutes.map(({ method, route, status }) => [method, route, status]),
    ).toEqual([
      ['POST', '/items/:id', 200],
      ['GET', '/items/:id', 200],
    ]);
  });

  /** The same request to the app's server and to its Express app alone: status, headers in order, body. */
  async function bothWays(method: string, path: string, headers: Record<string, string>) {
    const framework = createServer(service.app.getHttpAdapter().getInstance() as RequestListener);
    await new Promise<void>((resolve) => framework.listen(0, '127.0.0.1', resolve));
    const frameworkUrl = `http://127.0.0.1:${(framework.address() as AddressInfo).port}`;
    const exchange = async (base: string) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'x-request-id': 'same', ...headers },
      });
      const seen = [...response.headers.entries()].filter(
        ([name]) => !['date', 'keep-alive', 'connection'].includes(name),
      );
      return { status: response.status, headers: seen, body: await response.text() };
    };
    try {
      return { fast: await exchange(service.url), framework: await exchange(frameworkUrl) };
    } finally {
      framework.closeAllConnections();
      await new Promise((resolve) => framework.close(resolve));
    }
  }

  it('answers a GET with the query bound as Express parses it, as the framework does', async () => {
    const { fast, framework } = await bothWays('GET', '/items/7?tag=a&tag=b&x[y]=1&e=%C3%BC', {
      'x-key': 'open',
    });
    expect(fast).toEqual(framework);
    expect(fast.status).toBe(200);
    expect(JSON.parse(fast.body)).toEqual({
      id: '7',
      query: (service.app.getHttpAdapter().getInstance() as { get(name: string): unknown }).get(
        'query parser fn',
      )
        ? expect.objectContaining({ tag: ['a', 'b'], e: 'ü' })
        : {},
      tag: ['a', 'b'],
    });
  });

  it('answers HEAD as Express does: the GET’s status and headers, no body', async () => {
    const { fast, framework } = await bothWays('HEAD', '/items/7?tag=a', { 'x-key': 'open' });
    expect(fast).toEqual(framework);
    expect(fast.status).toBe(200);
    expect(fast.headers).toContainEqual([
      'content-length',
      String('{"id":"7","query":{"tag":"a"},"tag":"a"}'.length),
    ]);
    expect(fast.body).toBe('');
  });

  it('refuses a GET through the guard and the filter, as the framework does', async () => {
    for (const [headers, status] of [
      [{}, 401],
      [{ 'x-key': 'open' }, 404],
    ] as const) {
      const path = status === 404 ? '/items/missing' : '/items/1';
      const { fast, framework } = await bothWays('GET', path, headers);
      expect(fast).toEqual(framework);
      expect(fast.status).toBe(status);
      expect(JSON.parse(fast.body)).toEqual({ filtered: status });
    }
  });

  it('runs the guard, then reads the body, then the handler with its parameters', async () => {
    const response = await post('/Items/a%20b/', { 'x-key': 'open' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'a b', body: { a: 1 } });
  });

  it('refuses through the app’s exception filter, before the body is read', async () => {
    const refused = await post('/items/1', {});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ filtered: 401 });
    const malformed = await post('/items/1', { 'x-key': 'open' }, '{');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ filtered: 400 });
  });

  it('fails the boot for an interceptor it does not model', async () => {
    await expect(
      start({ configure: (app) => void app.useGlobalInterceptors(new OtherInterceptor()) }),
    ).rejects.toThrow(/@FastPath ItemsController.add: .*OtherInterceptor/);
  });

  it('stops where the app’s front middleware answers, as Express does', async () => {
    const refusing = await start({
      configure: (app) => {
        const refuse = (request: RouteRequest, response: ServerResponse, next: () => void): void => {
          if (request.headers['x-refuse'] === undefined) return next();
          response.statusCode = 418;
          response.end('refused');
        };
        app.use(refuse);
        app.get(HttpFront).use(refuse);
      },
    });
    try {
      const refused = await fetch(`${refusing.url}/items/1`, {
        headers: { 'x-key': 'open', 'x-refuse': '1' },
      });
      expect(refused.status).toBe(418);
      expect(await refused.text()).toBe('refused');
      const passed = await fetch(`${refusing.url}/items/1`, { headers: { 'x-key': 'open' } });
      expect(passed.status).toBe(200);
    } finally {
      await refusing.close();
    }
  });

  it('fails the boot for Express’s ETag, which it does not write', async () => {
    await expect(start({ etag: true })).rejects.toThrow(/@FastPath \/items\/:id: Express’s ETag/);
  });

  it('fails the boot for middleware it does not model', async () => {
    await expect(
      start({
        configure: (app) => {
          app.use(function rewriteUrl(_request: unknown, _response: unknown, next: () => void) {
            next();
          });
        },
      }),
    ).rejects.toThrow(/@FastPath \/items\/:id: middleware rewriteUrl is not modelled/);
  });
});
