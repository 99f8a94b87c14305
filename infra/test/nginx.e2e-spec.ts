import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivityBus } from '@fieldops/bus';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { REPOSITORY_ROOT } from './deployment-files';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

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

/** The real template, rendered as the nginx image would, into a throw-away prefix (pid, logs, temp paths). */
function renderConfiguration(
  prefix: string,
  listenPort: number,
  services: Record<string, RunningService>,
): string {
  const template = readFileSync(join(REPOSITORY_ROOT, 'infra/nginx/fieldops.conf.template'), 'utf8');
  const site = template
    .replaceAll('${INSPECTION_API_UPSTREAM}', `127.0.0.1:${services.inspection.port}`)
    .replaceAll('${RELAY_GATEWAY_UPSTREAM}', `127.0.0.1:${services.relay.port}`)
    .replaceAll('${CONNECTOR_GATEWAY_UPSTREAM}', `127.0.0.1:${services.connector.port}`)
    .replaceAll('${LISTEN_PORT}', String(listenPort))
    .replaceAll('/dev/stdout', join(prefix, 'access.log'));
  writeFileSync(join(prefix, 'fieldops.conf'), site);
  const main = `worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  include ${prefix}/fieldops.conf;
}
`;
  writeFileSync(join(prefix, 'nginx.conf'), main);
  return join(prefix, 'nginx.conf');
}

async function waitForPort(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

(NGINX ? describe : describe.skip)('nginx in front of the three services (real nginx from Debian)', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'fieldops-nginx-'));
  const services: Record<string, RunningService> = {};
  const bus = createActivityBus();
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let nginx: ReturnType<typeof spawn> | undefined;
  let base = '';

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'nginx_e2e');
    const environment = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      INSPECTION_API_PORT: '0',
      RELAY_GATEWAY_PORT: '0',
      CONNECTOR_GATEWAY_PORT: '0',
      // Both gateways read the bots from the platform configuration (relay-gateway requires it).
      PLATFORM_CONFIG: join(REPOSITORY_ROOT, 'infra', 'config', 'platform.example.yaml'),
    };
    services.inspection = await startInspectionApi({ environment });
    services.relay = await startRelayGateway({ environment, bus });
    services.connector = await startConnectorGateway({ environment, bus });
    const port = await freePort();
    const configuration = renderConfiguration(prefix, port, services);
    execFileSync(NGINX ?? 'nginx', ['-t', '-q', '-p', prefix, '-c', configuration]);
    nginx = spawn(NGINX ?? 'nginx', ['-p', prefix, '-c', configuration], { stdio: 'ignore' });
    base = `http://127.0.0.1:${port}`;
    await waitForPort(`${base}/nginx-healthz`, 10_000);
  });

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    for (const service of Object.values(services)) await service.close();
    await bus.close();
    await database?.drop();
    rmSync(prefix, { recursive: true, force: true });
  });

  function upstreamOf(requestId: string): string | undefined {
    const lines = readFileSync(join(prefix, 'access.log'), 'utf8').trim().split('\n');
    const line = lines
      .map((text) => JSON.parse(text) as { request_id: string; upstream: string })
      .find((entry) => entry.request_id === requestId);
    return line?.upstream;
  }

  async function get(path: string, requestId: string) {
    const response = await fetch(`${base}${path}`, { headers: { 'x-request-id': requestId } });
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: await response.json().catch((): unknown => null),
    };
  }

  it('routes /api/ to inspection-api and keeps the request id end to end', async () => {
    const answer = await get('/api/nothing-here/', 'nginx-test-api');
    expect(answer).toEqual({ status: 404, requestId: 'nginx-test-api', body: { detail: 'Not found.' } });
    expect(upstreamOf('nginx-test-api')).toBe(`127.0.0.1:${services.inspection.port}`);
  });

  it('routes Direct Line 3.0 paths to relay-gateway and the 1.1 API under /relay/api/', async () => {
    for (const [path, id] of [
      ['/v3/directline/nothing', 'nginx-test-dl'],
      ['/v3/relay/nothing', 'nginx-test-relay'],
      ['/relay/api/nothing', 'nginx-test-v11'],
    ]) {
      const answer = await get(path, id);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'NotFound' } });
      expect(upstreamOf(id)).toBe(`127.0.0.1:${services.relay.port}`);
    }
  });

  it('routes a directline.* host wholly to relay-gateway, /api included', async () => {
    // fetch() will not send another Host header; node:http will.
    await new Promise<void>((resolve, reject) => {
      request(
        `${base}/api/nothing`,
        { headers: { host: 'directline.example.test', 'x-request-id': 'nginx-test-host' } },
        (response) => {
          response.resume();
          response.once('end', resolve);
        },
      )
        .once('error', reject)
        .end();
    });
    expect(upstreamOf('nginx-test-host')).toBe(`127.0.0.1:${services.relay.port}`);
  });

  it('routes everything else to connector-gateway', async () => {
    const answer = await get('/v3/conversations/abc/activities', 'nginx-test-connector');
    expect(answer.body).toMatchObject({ error: { code: expect.any(String) } });
    expect(upstreamOf('nginx-test-connector')).toBe(`127.0.0.1:${services.connector.port}`);
  });

  it('keeps health and metrics endpoints off the public side', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
    }
  });
});
