import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivityBus } from '@fieldops/bus';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { freePort, NGINX_BINARY, renderNginxConfiguration } from '../src';
import { REPOSITORY_ROOT } from './deployment-files';

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

(NGINX_BINARY ? describe : describe.skip)(
  'nginx in front of the three services (real nginx from Debian)',
  () => {
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
      // The real template, rendered as the nginx image would, into a throw-away prefix (pid, logs, temp paths).
      const configuration = renderNginxConfiguration({
        repositoryRoot: REPOSITORY_ROOT,
        prefix,
        listenPort: port,
        inspectionApi: [`127.0.0.1:${services.inspection.port}`],
        relayGateway: [`127.0.0.1:${services.relay.port}`],
        connectorGateway: [`127.0.0.1:${services.connector.port}`],
      });
      execFileSync(NGINX_BINARY ?? 'nginx', ['-t', '-q', '-p', prefix, '-c', configuration]);
      nginx = spawn(NGINX_BINARY ?? 'nginx', ['-p', prefix, '-c', configuration], { stdio: 'ignore' });
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
  },
);
