import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { freePort, RedisServerProcess, waitUntil } from '../src';
import { REPOSITORY_ROOT } from './deployment-files';

const REDIS_BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) =>
  existsSync(path),
);
if (!REDIS_BINARY && process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed');
if (!REDIS_BINARY) console.warn('relay-readiness.e2e-spec: redis-server is not installed; skipped');

interface Readiness {
  status: number;
  body: { status: string; checks: Record<string, { status: string; error?: string }> };
}

(REDIS_BINARY ? describe : describe.skip)('relay readiness follows its bus subscription', () => {
  const directory = mkdtempSync(join(tmpdir(), 'fieldops-relay-readiness-'));
  let redis: RedisServerProcess;
  let relay: Awaited<ReturnType<typeof startRelayGateway>>;

  const readiness = async (): Promise<Readiness> => {
    const response = await fetch(`${relay.url}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness['body'] };
  };

  beforeAll(async () => {
    redis = new RedisServerProcess({ port: await freePort(), directory, binary: REDIS_BINARY });
    await redis.start();
    relay = await startRelayGateway({
      environment: {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RELAY_GATEWAY_PORT: '0',
        REDIS_URL: redis.url,
        RELAY_BOT_SERVICE_URL: 'http://127.0.0.1:8020/',
        PLATFORM_CONFIG: join(REPOSITORY_ROOT, 'infra', 'config', 'platform.example.yaml'),
      },
    });
  }, 30_000);
  afterAll(async () => {
    await relay?.close();
    await redis?.shutdown();
    rmSync(directory, { recursive: true, force: true });
  });

  it('is ready on a subscribed bus, unready while Redis is down, and ready again once re-subscribed', async () => {
    expect(await readiness()).toMatchObject({ status: 200, body: { checks: { redis: { status: 'up' } } } });
    const base = `${relay.url}/v3/directline`;
    // The example configuration's bot has enhanced authentication on: a dl_ user's token starts the conversation.
    const generated = await fetch(`${base}/tokens/generate`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-directline-secret-0001', 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: { id: 'dl_readiness' } }),
    });
    const { conversationId, token } = (await generated.json()) as { conversationId: string; token: string };
    const started = await fetch(`${base}/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect([200, 201]).toContain(started.status);

    await redis.shutdown();
    let down: Readiness | undefined;
    await waitUntil(
      async () => {
        down = await readiness();
        return down.status === 503;
      },
      'the relay to report unready',
      15_000,
    );
    if (!down) throw new Error('no readiness report');
    expect(down.body.checks.redis).toMatchObject({ status: 'down' });
    expect(down.body.checks.redis.error).toMatch(/Redis activity bus is not (ready|subscribed)/);
    // Polling never answers 5xx (DirectLineJS would stop for good), even with the rate-limit store down too.
    const poll = await fetch(`${base}/conversations/${conversationId}/activities?watermark=0`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(poll.status).toBe(200);

    await redis.start();
    await waitUntil(
      async () => (await readiness()).status === 200,
      'the relay to report ready again',
      20_000,
    );
    expect((await readiness()).body.checks.redis).toEqual({ status: 'up' });
  }, 60_000);
});
