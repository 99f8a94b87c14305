import { ConfigurationError } from '@fieldops/platform';
import { resolve } from 'node:path';
import { startRelayGateway } from '../src';

const baseEnvironment = {
  RELAY_GATEWAY_PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  REDIS_URL: process.env.REDIS_URL,
  PLATFORM_CONFIG: resolve(__dirname, '../../../infra/config/platform.example.yaml'),
};

describe('relay-gateway service', () => {
  let gateway: Awaited<ReturnType<typeof startRelayGateway>>;
  beforeAll(async () => {
    gateway = await startRelayGateway({ environment: baseEnvironment });
  });
  afterAll(() => gateway.close());

  it('is live and ready, checking the activity bus and conversation store it runs on', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    const expectedCheck = process.env.REDIS_URL ? 'redis' : 'bus';
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: {
        [expectedCheck]: { status: 'up' },
        'conversation-store': { status: 'up' },
        // No connector-gateway runs at the default serviceUrl here: shown, but advisory (still ready).
        botServiceUrl: expect.objectContaining({ advisory: true }),
      },
    });
  });

  it('answers unknown routes in the Direct Line error format', async () => {
    const response = await fetch(`${gateway.url}/v3/directline/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });
  });

  it('serves Prometheus metrics labelled with its service name', async () => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).toContain('service="relay-gateway"');
  });
});

describe('relay-gateway configuration', () => {
  it('refuses to start with an invalid port or Redis URL, naming the variable', async () => {
    await expect(
      startRelayGateway({ environment: { ...baseEnvironment, RELAY_GATEWAY_PORT: 'eighty' } }),
    ).rejects.toThrow(/RELAY_GATEWAY_PORT/);
    await expect(
      startRelayGateway({ environment: { ...baseEnvironment, REDIS_URL: 'localhost:6379' } }),
    ).rejects.toBeInstanceOf(ConfigurationError);
    await expect(
      startRelayGateway({ environment: { ...baseEnvironment, PLATFORM_CONFIG: '/nonexistent.yaml' } }),
    ).rejects.toThrow(/PLATFORM_CONFIG/);
  });

  it('reports Redis as down (503) when it cannot reach it', async () => {
    const gateway = await startRelayGateway({
      environment: { ...baseEnvironment, REDIS_URL: 'redis://127.0.0.1:1' },
    });
    try {
      const response = await fetch(`${gateway.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: 'unavailable',
        checks: { redis: { status: 'down' } },
      });
    } finally {
      await gateway.close();
    }
  });
});
