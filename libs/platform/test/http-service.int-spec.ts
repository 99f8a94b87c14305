import { Controller, Get, Module, NotFoundException } from '@nestjs/common';
import { Writable } from 'node:stream';
import {
  createLogger,
  PlatformModule,
  ReadinessRegistry,
  type RunningService,
  startHttpService,
} from '../src';

let releaseSlowRequest: () => void = () => undefined;

@Controller('demo')
class DemoController {
  @Get('slow')
  async slow(): Promise<{ done: true }> {
    await new Promise<void>((resolve) => (releaseSlowRequest = resolve));
    return { done: true };
  }

  @Get('items/:id')
  item(): never {
    throw new NotFoundException();
  }
}

function silentLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ service: 'demo', destination }), lines };
}

async function startDemo(checks: Record<string, () => Promise<void>> = {}) {
  const { logger, lines } = silentLogger();
  @Module({
    imports: [PlatformModule.forRoot({ service: 'demo', logger })],
    controllers: [DemoController],
  })
  class DemoModule {}
  const running = await startHttpService({
    service: 'demo',
    module: DemoModule,
    logger,
    host: '127.0.0.1',
    port: 0,
    shutdownTimeoutMs: 5000,
  });
  const readiness = running.app.get(ReadinessRegistry);
  for (const [name, check] of Object.entries(checks)) readiness.register(name, check);
  return { running, lines };
}

describe('startHttpService', () => {
  let service: RunningService;
  let lines: string[];
  beforeAll(async () => {
    ({ running: service, lines } = await startDemo({ database: () => Promise.resolve() }));
  });
  afterAll(() => service.close());

  it('answers /healthz and /readyz with the checks it ran', async () => {
    const live = await fetch(`${service.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: { status: 'up' } } });
  });

  it('echoes a well-formed X-Request-Id, makes one otherwise, and logs it', async () => {
    const given = await fetch(`${service.url}/demo/items/1`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${service.url}/demo/items/1`, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((line) => line.includes('"id":"abc-123"'))).toBe(true);
  });

  it('keeps idle keep-alive connections longer than nginx keeps its upstream ones (60 s)', () => {
    const server = service.app.getHttpServer();
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it('exposes request counts and latency by route pattern and status', async () => {
    await fetch(`${service.url}/demo/items/42`);
    await fetch(`${service.url}/no/such/route`);
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toMatch(
      /http_requests_total\{method="GET",route="\/demo\/items\/:id",status="404",service="demo"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",service="demo",method="GET",route="\/demo\/items\/:id"/,
    );
    expect(text).toContain('route="<unmatched>"');
    expect(text).not.toContain('/demo/items/42');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('readiness', () => {
  it('answers 503 naming what is down', async () => {
    const { running } = await startDemo({
      database: () => Promise.resolve(),
      redis: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    });
    try {
      const response = await fetch(`${running.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: 'unavailable',
        checks: {
          database: { status: 'up' },
          redis: { status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:6379' },
        },
      });
    } finally {
      await running.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('stops accepting, lets the in-flight request finish, then closes', async () => {
    const { running } = await startDemo();
    const inFlight = fetch(`${running.url}/demo/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = running.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
    releaseSlowRequest();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closed;
  });
});
