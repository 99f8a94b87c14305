import { createScratchDatabase } from '@fieldops/database';
import { createLogger, freePort } from '@fieldops/platform';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlatformConfig } from '@fieldops/platform-config';
import {
  EXAMPLE_PLATFORM_CONFIG,
  selectApps,
  startInProcessPlatform,
  startSeparateProcesses,
  withPlatformConfigDefault,
} from '../src';

const logger = createLogger({ service: 'all-in-one-test', level: 'silent' });
const BOT_PASSWORD = 'service-account-password-for-all-in-one-tests';
const SUPERVISOR_PASSWORD = 'supervisor-password-for-all-in-one-tests';

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is set by the Jest global setup');
  return url;
}

/** A process's environment as the kernel holds it (Linux). */
function environmentOf(pid: number | undefined): Map<string, string> {
  if (pid === undefined) throw new Error('the app is not running');
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((entry): [string, string] => [
      entry.slice(0, entry.indexOf('=')),
      entry.slice(entry.indexOf('=') + 1),
    ]);
  return new Map(entries);
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

  it('runs the four apps in one process on the in-process bus, all ready, with demo data, and stops them', async () => {
    const platform = await startInProcessPlatform(
      {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
        INSPECTION_BOT_PORT: '0',
        INSPECTION_BOT_API_PASSWORD: BOT_PASSWORD,
        CONSOLE_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD,
      },
      logger,
    );
    try {
      // In start order: the relay delivers through the connector, so the connector starts first; the bot last.
      expect(platform.services.map((service) => service.service)).toEqual([
        'inspection-api',
        'connector-gateway',
        'relay-gateway',
        'inspection-bot',
      ]);
      for (const service of platform.services) {
        const response = await fetch(`${service.url}/readyz`);
        expect(response.status).toBe(200);
      }
      // The relay stamps the connector's actual address (port 0 was asked for) as serviceUrl, and checks it.
      const relayReady = (await (await fetch(`${platform.services[2]?.url ?? ''}/readyz`)).json()) as {
        checks: Record<string, { status: string }>;
      };
      expect(relayReady.checks.botServiceUrl?.status).toBe('up');
      expect(platform.database).toBe('PostgreSQL from DATABASE_URL');
      // The chat channel is on: inspection-api hands chat notifications to the bundled bot (chat-channel-launch.ts).
      expect(platform.chatChannel).toBe(true);
      // A conversation started with the example channel's secret reaches the bot through the in-process delivery
      // (no HTTP hop to the connector), and the bot's answer comes back through the connector.
      const secret = loadPlatformConfig(EXAMPLE_PLATFORM_CONFIG, {
        environment: withPlatformConfigDefault({}),
      }).bots[0]?.directLine?.secrets[0];
      const relayUrl = platform.services[2]?.url ?? '';
      // The example channel runs with enhanced authentication: a token generated for a dl_ user, as the chat page
      // gets one, then the conversation started with it.
      const generated = await fetch(`${relayUrl}/v3/directline/tokens/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ user: { id: 'dl_all-in-one-test' } }),
      });
      expect(generated.status).toBe(200);
      const { token: generatedToken } = (await generated.json()) as { token: string };
      const started = await fetch(`${relayUrl}/v3/directline/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${generatedToken}` },
      });
      expect(started.status).toBe(201);
      const { conversationId, token } = (await started.json()) as { conversationId: string; token: string };
      const sent = await fetch(`${relayUrl}/v3/directline/conversations/${conversationId}/activities`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'message', from: { id: 'dl_all-in-one-test' }, text: 'help' }),
      });
      expect(sent.status).toBe(200);
      let fromBot: unknown[] = [];
      for (let attempt = 0; attempt < 100 && fromBot.length === 0; attempt += 1) {
        const page = (await (
          await fetch(`${relayUrl}/v3/directline/conversations/${conversationId}/activities`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { activities: Array<{ from: { id: string } }> };
        fromBot = page.activities.filter((activity) => activity.from.id === 'inspection-bot');
        if (fromBot.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(fromBot.length).toBeGreaterThan(0);
      const bot = platform.services[3];
      expect(platform.chatPageUrl).toBe(bot?.url);
      expect(await (await fetch(`${bot?.url}/`)).text()).toContain('manifest.webmanifest');
      // The bot's service account exists and the demo devices were created for a new user to inspect.
      const api = platform.services[0]?.url ?? '';
      const tokens = await fetch(`${api}/api/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'inspection-bot', password: BOT_PASSWORD }),
      });
      expect(tokens.status).toBe(201);
      const { access } = (await tokens.json()) as { access: string };
      const devices = await fetch(`${api}/api/devices/`, { headers: { authorization: `Bearer ${access}` } });
      expect(((await devices.json()) as { count: number }).count).toBeGreaterThan(0);

      // The supervisor console on inspection-api's origin (the build of @fieldops/inspection-console), and the
      // demo supervisor the banner names, who can sign in.
      expect(platform.console).toEqual({
        url: `${api}/console/`,
        supervisor: { username: 'supervisor', password: SUPERVISOR_PASSWORD },
      });
      const page = await fetch(platform.console?.url ?? '');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('<div id="root">');
      const supervisorTokens = await fetch(`${api}/api/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'supervisor', password: SUPERVISOR_PASSWORD }),
      });
      expect(supervisorTokens.status).toBe(201);
    } finally {
      await platform.close();
    }
    await expect(fetch(`${platform.services[0]?.url ?? 'http://127.0.0.1:1'}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('runs a subset of the apps without starting PostgreSQL when inspection-api is not among them', async () => {
    const dataDirectory = join(await mkdtemp(join(tmpdir(), 'all-in-one-subset-')), 'postgres');
    const platform = await startInProcessPlatform(
      {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        EMBEDDED_POSTGRES_DIR: dataDirectory,
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
      },
      logger,
      selectApps(['--apps', 'relay,connector'], undefined),
    );
    try {
      expect(platform.services.map((service) => service.service)).toEqual([
        'connector-gateway',
        'relay-gateway',
      ]);
      expect(platform.database).toBeUndefined();
      expect(platform.chatPageUrl).toBeUndefined();
      for (const service of platform.services)
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect(existsSync(dataDirectory)).toBe(false);
    } finally {
      await platform.close();
    }
  });

  it('with DATABASE_URL and REDIS_URL runs each app (and the bot) as its own process and stops them all on close', async () => {
    const [inspection, relay, connector, bot] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const running = startSeparateProcesses(
      {
        ...process.env,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: String(inspection),
        RELAY_GATEWAY_PORT: String(relay),
        CONNECTOR_GATEWAY_PORT: String(connector),
        INSPECTION_BOT_PORT: String(bot),
        INSPECTION_BOT_API_PASSWORD: BOT_PASSWORD,
      },
      logger,
    );
    try {
      // Four cold Node.js processes on a loaded two-core machine: one generous deadline for all of them.
      const deadline = Date.now() + 150_000;
      for (const port of [inspection, relay, connector, bot]) {
        expect(await waitReady(`http://127.0.0.1:${port}`, deadline - Date.now())).toBe(200);
      }
      // Each process got only its own variables: the relay has Redis but not the bot's or the API's secrets.
      const relayVariables = environmentOf(running.pid('relay-gateway'));
      expect(relayVariables.get('REDIS_URL')).toBe(process.env.REDIS_URL);
      expect(relayVariables.has('RELAY_GATEWAY_PORT')).toBe(true);
      for (const name of ['INSPECTION_BOT_API_PASSWORD', 'DATABASE_URL', 'INSPECTION_ADMIN_PASSWORD'])
        expect([name, relayVariables.has(name)]).toEqual([name, false]);
      const botVariables = environmentOf(running.pid('inspection-bot'));
      expect(botVariables.get('INSPECTION_BOT_API_PASSWORD')).toBe(BOT_PASSWORD);
      for (const name of ['DATABASE_URL', 'CONNECTOR_INTERNAL_KEY', 'RELAY_CONNECTOR_KEY'])
        expect([name, botVariables.has(name)]).toEqual([name, false]);
      // RELAY_BOT_SERVICE_URL follows CONNECTOR_GATEWAY_PORT: the serviceUrl answers as the connector.
      const relayReady = (await (await fetch(`http://127.0.0.1:${relay}/readyz`)).json()) as {
        checks: Record<string, { status: string }>;
      };
      expect(relayReady.checks.botServiceUrl?.status).toBe('up');
    } finally {
      await running.close();
    }
    await running.exited;
  }, 240_000);
});
