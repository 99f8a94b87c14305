import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '@fieldops/platform';
import { startConnectorGateway } from '../src';

const baseEnvironment = {
  CONNECTOR_GATEWAY_PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  REDIS_URL: process.env.REDIS_URL,
  CONNECTOR_DEV_SIGNING_KEY_FILE: join(mkdtempSync(join(tmpdir(), 'connector-dev-key-')), 'key.pem'),
};

describe('connector-gateway service', () => {
  let gateway: Awaited<ReturnType<typeof startConnectorGateway>>;
  beforeAll(async () => {
    gateway = await startConnectorGateway({ environment: baseEnvironment });
  });
  afterAll(() => gateway.close());

  it('is live and ready, checking the activity bus and the conversation store it runs on', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    const expectedCheck = process.env.REDIS_URL ? 'redis' : 'bus';
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { [expectedCheck]: { status: 'up' }, 'conversation-store': { status: 'up' } },
    });
  });

  it('answers unknown routes in the Bot Connector error format', async () => {
    const response = await fetch(`${gateway.url}/v3/conversations/c1/unknown/route`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });
  });

  it('serves Prometheus metrics labelled with its service name', async () => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).toContain('service="connector-gateway"');
  });
});

describe('connector-gateway configuration', () => {
  it('refuses to start with an invalid port or Redis URL, naming the variable', async () => {
    await expect(
      startConnectorGateway({ environment: { ...baseEnvironment, CONNECTOR_GATEWAY_PORT: 'eighty' } }),
    ).rejects.toThrow(/CONNECTOR_GATEWAY_PORT/);
    await expect(
      startConnectorGateway({ environment: { ...baseEnvironment, REDIS_URL: 'localhost:6379' } }),
    ).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('refuses CONNECTOR_HTTPS_PORT without a readable certificate and key, naming them', async () => {
    const refusal = startConnectorGateway({ environment: { ...baseEnvironment, CONNECTOR_HTTPS_PORT: '0' } });
    await expect(refusal).rejects.toThrow(/CONNECTOR_TLS_CERT_FILE/);
    await expect(refusal).rejects.toThrow(/CONNECTOR_TLS_KEY_FILE/);
    await expect(
      startConnectorGateway({
        environment: {
          ...baseEnvironment,
          CONNECTOR_HTTPS_PORT: '0',
          CONNECTOR_TLS_CERT_FILE: '/nonexistent/cert.pem',
          CONNECTOR_TLS_KEY_FILE: '/nonexistent/key.pem',
        },
      }),
    ).rejects.toThrow(/CONNECTOR_TLS_CERT_FILE names no readable file/);
  });

  it('serves the AI resources and phrasebook of the platform configuration file (the example)', async () => {
    const gateway = await startConnectorGateway({
      environment: {
        ...baseEnvironment,
        PLATFORM_CONFIG: resolve(__dirname, '../../../infra/config/platform.example.yaml'),
      },
    });
    try {
      const response = await fetch(`${gateway.url}/translate?api-version=3.0&to=zh-Hans`, {
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': 'demo-translator-key-0000000000000001',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify([{ Text: 'Inspection complete' }, { Text: 'warn' }]),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Array<{ translations: Array<{ text: string }> }>;
      expect(body.map((item) => item.translations[0]?.text)).toEqual(['检查完成', '警告']);
    } finally {
      await gateway.close();
    }
  });

  it('reports Redis as down (503) when it cannot reach it', async () => {
    const gateway = await startConnectorGateway({
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
