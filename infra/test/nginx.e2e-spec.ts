import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

const CONSOLE_DIST = join(REPOSITORY_ROOT, 'apps', 'inspection-console', 'dist');

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
    let consolePort = 0;
    let htmlRoot = '';

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'nginx_e2e');
      const environment = {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
        // The relay derives its bots' serviceUrl from CONNECTOR_GATEWAY_PORT, which is 0 (any free port) here;
        // no bot is reached in this test, so any valid URL does.
        RELAY_BOT_SERVICE_URL: 'http://127.0.0.1:8020/',
        // Both gateways read the bots from the platform configuration (relay-gateway requires it).
        PLATFORM_CONFIG: join(REPOSITORY_ROOT, 'infra', 'config', 'platform.example.yaml'),
      };
      services.inspection = await startInspectionApi({ environment });
      services.relay = await startRelayGateway({ environment, bus });
      services.connector = await startConnectorGateway({ environment, bus });
      const port = await freePort();
      // The inspection-console image's server on its own port, its document root holding console/ → the build.
      consolePort = await freePort();
      // Outside the private prefix: nginx's workers (nobody, when the test runs as root) must read it.
      htmlRoot = mkdtempSync(join(tmpdir(), 'fieldops-console-html-'));
      chmodSync(htmlRoot, 0o755);
      if (!existsSync(join(CONSOLE_DIST, 'index.html')))
        throw new Error(`${CONSOLE_DIST} has no index.html: npm run build -w @fieldops/inspection-console`);
      symlinkSync(CONSOLE_DIST, join(htmlRoot, 'console'));
      // The real template, rendered as the nginx image would, into a throw-away prefix (pid, logs, temp paths).
      const configuration = renderNginxConfiguration({
        repositoryRoot: REPOSITORY_ROOT,
        prefix,
        listenPort: port,
        inspectionApi: [`127.0.0.1:${services.inspection.port}`],
        relayGateway: [`127.0.0.1:${services.relay.port}`],
        connectorGateway: [`127.0.0.1:${services.connector.port}`],
        inspectionConsole: [`127.0.0.1:${consolePort}`],
        consoleStatic: { listenPort: consolePort, htmlRoot },
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
      if (htmlRoot) rmSync(htmlRoot, { recursive: true, force: true });
    });

    /** The upstream nginx logged for a request; nginx logs after the response, so the line may come a moment later. */
    async function upstreamOf(requestId: string): Promise<string | undefined> {
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const lines = readFileSync(join(prefix, 'access.log'), 'utf8').trim().split('\n');
        const line = lines
          .filter((text) => text !== '')
          .map((text) => JSON.parse(text) as { request_id: string; upstream: string })
          .find((entry) => entry.request_id === requestId);
        if (line) return line.upstream;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return undefined;
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
      expect(await upstreamOf('nginx-test-api')).toBe(`127.0.0.1:${services.inspection.port}`);
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
        expect(await upstreamOf(id)).toBe(`127.0.0.1:${services.relay.port}`);
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
      expect(await upstreamOf('nginx-test-host')).toBe(`127.0.0.1:${services.relay.port}`);
    });

    it('routes everything else to connector-gateway', async () => {
      const answer = await get('/v3/conversations/abc/activities', 'nginx-test-connector');
      expect(answer.body).toMatchObject({ error: { code: expect.any(String) } });
      expect(await upstreamOf('nginx-test-connector')).toBe(`127.0.0.1:${services.connector.port}`);
    });

    it('serves the supervisor console’s built files at /console/ through the image’s nginx server', async () => {
      const redirect = await fetch(`${base}/console`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      expect(new URL(redirect.headers.get('location') ?? '', base).href).toBe(`${base}/console/`);
      const page = await fetch(`${base}/console/`, { headers: { 'x-request-id': 'nginx-test-console' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      expect(await upstreamOf('nginx-test-console')).toBe(`127.0.0.1:${consolePort}`);
      // The hashed script the page loads: served as JavaScript (an ES module needs it), cached for a year.
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${base}/console/${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${base}/console/assets/missing.js`)).status).toBe(404);
    });

    it('keeps health and metrics endpoints off the public side', async () => {
      for (const path of ['/metrics', '/readyz', '/healthz']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status).toBe(404);
      }
    });
  },
);
