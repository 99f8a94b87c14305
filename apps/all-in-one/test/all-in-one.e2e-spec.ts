import { createServer } from 'node:net';
import { createScratchDatabase } from '@fieldops/database';
import { createLogger } from '@fieldops/platform';
import { startInProcessPlatform, startSeparateProcesses } from '../src';

const logger = createLogger({ service: 'all-in-one-test', level: 'silent' });

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is set by the Jest global setup');
  return url;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitReady(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let status = 0;
  while (Date.now() < deadline) {
    status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return status;
}

describe('all-in-one launcher', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    database = await createScratchDatabase(adminUrl(), 'all_in_one');
  });
  afterAll(() => database?.drop());

  it('runs the three apps in one process on the in-process bus, all ready, and stops them', async () => {
    const platform = await startInProcessPlatform(
      {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
      },
      logger,
    );
    try {
      // In start order: the relay delivers through the connector, so the connector starts first.
      expect(platform.services.map((service) => service.service)).toEqual([
        'inspection-api',
        'connector-gateway',
        'relay-gateway',
      ]);
      for (const service of platform.services) {
        const response = await fetch(`${service.url}/readyz`);
        expect(response.status).toBe(200);
      }
    } finally {
      await platform.close();
    }
    await expect(fetch(`${platform.services[0]?.url ?? 'http://127.0.0.1:1'}/healthz`)).rejects.toThrow();
  });

  it('with DATABASE_URL and REDIS_URL runs each app as its own process and stops them all on close', async () => {
    const [inspection, relay, connector] = await Promise.all([freePort(), freePort(), freePort()]);
    const running = startSeparateProcesses(
      {
        ...process.env,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: String(inspection),
        RELAY_GATEWAY_PORT: String(relay),
        CONNECTOR_GATEWAY_PORT: String(connector),
      },
      logger,
    );
    try {
      for (const port of [inspection, relay, connector]) {
        expect(await waitReady(`http://127.0.0.1:${port}`, 30_000)).toBe(200);
      }
    } finally {
      await running.close();
    }
    await running.exited;
  }, 60_000);
});
