import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildProcess, spawn } from 'node:child_process';
import { startInspectionApi } from '../src';
import { ADMIN, SIGNING_KEY } from './support/test-api';

/**
 * PostgreSQL away (a server of the test's own, stopped and started again under the running app): every route is
 * DRF's 503 with Retry-After, a valid token is never a 401 for it, and the app answers again once the server is
 * back, without a restart.
 */
describe('inspection-api with PostgreSQL away', () => {
  let dataDir: string;
  let mediaRoot: string;
  let postgres: PostgresChild;
  let api: { url: string; close: () => Promise<void> };
  /** A second copy on the same database that has served nothing: its principal cache is cold. */
  let cold: { url: string; close: () => Promise<void> };
  let port: number;

  const startPostgres = () => startPostgresChild(dataDir, port);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'inspection-outage-pg-'));
    mediaRoot = await mkdtemp(join(tmpdir(), 'inspection-outage-media-'));
    postgres = await startPostgresChild(dataDir, 0);
    port = postgres.port;
    const environment = {
      INSPECTION_API_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: postgres.url,
      INSPECTION_JWT_SIGNING_KEY: SIGNING_KEY,
      INSPECTION_ADMIN_USERNAME: ADMIN.username,
      INSPECTION_ADMIN_PASSWORD: ADMIN.password,
      INSPECTION_MEDIA_ROOT: mediaRoot,
    };
    api = await startInspectionApi({ environment });
    cold = await startInspectionApi({ environment });
  }, 120_000);
  afterAll(async () => {
    await cold?.close();
    await api?.close();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(mediaRoot, { recursive: true, force: true });
  }, 60_000);

  const call = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${api.url}${path}`, {
      ...init,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });

  it('answers 503 with Retry-After in DRF format while PostgreSQL is away, then recovers by itself', async () => {
    const login = await call('/api/token/', undefined, { method: 'POST', body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(201);
    const { access } = (await login.json()) as { access: string };
    expect((await call('/api/devices/', access)).status).toBe(200);

    await postgres.stop();
    const routes: Array<[string, string, RequestInit?]> = [
      [api.url, '/api/devices/'], // the pre-routed list (the token was verified before)
      [api.url, '/api/records/'],
      [api.url, '/api/statistics/records/'],
      [api.url, '/api/due/summary/'],
      [api.url, '/api/devices/', { method: 'POST', body: JSON.stringify({ name: 'x', code: 'y' }) }],
      [cold.url, '/api/devices/'], // a valid token, its user not cached: 503, never 401 token_not_valid
      [cold.url, '/api/items/'],
    ];
    for (const [base, path, init] of routes) {
      const response = await fetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      });
      const text = await response.text();
      expect([base === cold.url ? 'cold' : 'warm', path, response.status, text]).toEqual([
        base === cold.url ? 'cold' : 'warm',
        path,
        503,
        '{"detail":"Service temporarily unavailable, try again later."}',
      ]);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('content-type')).toBe('application/json');
    }
    const signIn = await call('/api/token/', undefined, { method: 'POST', body: JSON.stringify(ADMIN) });
    expect(signIn.status).toBe(503);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(503);

    postgres = await startPostgres();
    for (const base of [api.url, cold.url]) {
      expect(
        (await fetch(`${base}/api/devices/`, { headers: { authorization: `Bearer ${access}` } })).status,
      ).toBe(200);
    }
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
  }, 120_000);
});

interface PostgresChild {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * The embedded PostgreSQL in a child process (its package is ESM-only and cannot load in Jest's sandbox): started
 * on `dataDir` (kept across restarts) and `port` (0: a free one); stop() shuts the server down and waits.
 */
function startPostgresChild(dataDir: string, port: number): Promise<PostgresChild> {
  const script = `
    const { EmbeddedPostgresServer } = require('@fieldops/database');
    EmbeddedPostgresServer.start({ dataDir: process.argv[1], port: Number(process.argv[2]), database: 'inspection_outage', persistent: true })
      .then((server) => {
        process.stdout.write(JSON.stringify({ url: server.url, port: server.port }) + '\\n');
        const alive = setInterval(() => undefined, 60_000); // the server's process is not a reason to stay
        process.once('SIGTERM', () => void server.stop().then(() => { clearInterval(alive); process.exit(0); }));
      }, (error) => { console.error(error); process.exit(1); });`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script, dataDir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('\n')) return;
      const started = JSON.parse(output.split('\n')[0]) as { url: string; port: number };
      resolve({
        ...started,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`the PostgreSQL child exited (${code})`)));
  });
}
