import { Controller, Get, Module, NotFoundException } from '@nestjs/common';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import {
  createLogger,
  type HttpServiceOptions,
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

async function startDemo(
  checks: Record<string, () => Promise<void>> = {},
  options: Partial<HttpServiceOptions> = {},
) {
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
    ...options,
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

  it('keeps idle keep-alive connections longer than nginx keeps its upstream ones (60 s), headers 20 s', () => {
    const server = service.app.getHttpServer();
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    // The headers deadline runs from a request's first byte, not over idle keep-alive time (tested below).
    expect(server.headersTimeout).toBe(20_000);
  });

  it('sends the security headers on every response, without HSTS on a plain-http service', async () => {
    const response = await fetch(`${service.url}/demo/items/1`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
    );
    expect(response.headers.get('strict-transport-security')).toBeNull();
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

describe('metrics exposure (METRICS_BEARER_TOKEN, METRICS_PORT)', () => {
  const token = 'metrics-token-0123456789abcdef';

  it('with a bearer token: 401 with a Bearer challenge without it or with another, 200 with it', async () => {
    const { running } = await startDemo({}, { metrics: { bearerToken: token } });
    try {
      const open = await fetch(`${running.url}/metrics`);
      expect(open.status).toBe(401);
      expect(open.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const wrong = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
      expect(wrong.status).toBe(401);
      const basic = await fetch(`${running.url}/metrics`, { headers: { authorization: `Basic ${token}` } });
      expect(basic.status).toBe(401);
      const right = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('process_cpu_user_seconds_total');
      // Health probes stay open.
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('on a separate port: absent from the app port, served there only, closed with the app', async () => {
    const { running } = await startDemo({}, { metrics: { port: 0, bearerToken: token } });
    const metricsUrl = running.metricsUrl ?? '';
    try {
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(metricsUrl).port).not.toBe(String(running.port));
      expect(
        (await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(404);
      expect((await fetch(metricsUrl)).status).toBe(401);
      const scraped = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toContain('text/plain');
      expect(await scraped.text()).toContain('http_requests_total');
      expect((await fetch(metricsUrl.replace('/metrics', '/healthz'))).status).toBe(404);
      expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
    } finally {
      await running.close();
    }
    await expect(fetch(metricsUrl)).rejects.toThrow();
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

/** Opens a raw connection and resolves with what the server wrote before it closed it (or the time ran out). */
function rawExchange(port: number, steps: Array<{ write: string; waitMs: number }>, maxMs: number) {
  return new Promise<{ received: string; closedAfterMs?: number }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const opened = Date.now();
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received });
    }, maxMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closedAfterMs: Date.now() - opened });
    });
    void (async () => {
      for (const step of steps) {
        if (socket.destroyed) return;
        socket.write(step.write);
        await new Promise((done) => setTimeout(done, step.waitMs));
      }
    })();
  });
}

describe('headers deadline', () => {
  it('cuts off a client that trickles its headers, but keeps an idle keep-alive connection open', async () => {
    const { running } = await startDemo({}, { headersTimeoutMs: 1_000 });
    try {
      const slow = await rawExchange(
        running.port,
        [
          { write: 'GET /healthz HTTP/1.1\r\n', waitMs: 400 },
          { write: 'Host: x\r\n', waitMs: 400 },
          { write: 'X-A: 1\r\n', waitMs: 400 },
          { write: 'X-B: 1\r\n', waitMs: 400 },
          { write: 'X-C: 1\r\n', waitMs: 400 },
          { write: 'X-D: 1\r\n', waitMs: 400 },
        ],
        5_000,
      );
      expect(slow.closedAfterMs).toBeDefined();
      expect(slow.closedAfterMs).toBeLessThan(2_500);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);

      const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
      const idle = await rawExchange(
        running.port,
        [
          { write: request, waitMs: 2_500 },
          { write: request, waitMs: 300 },
        ],
        3_500,
      );
      expect(idle.received.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    } finally {
      await running.close();
    }
  }, 15_000);
});
