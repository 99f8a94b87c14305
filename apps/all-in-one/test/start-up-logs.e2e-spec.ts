import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { freePort } from '@fieldops/platform';

/**
 * `npm start`'s start-up, as a collector sees it (standard output is a pipe, not a terminal): every log line is JSON,
 * and none looks like an error while nothing is wrong — no error line, no "no user yet" warning for the user the
 * launcher is about to create, no access line above info (the relay's probe of the connector is answered 401, the
 * challenge of a request that sent no credentials).
 */

const REPOSITORY_ROOT = resolve(__dirname, '../../..');
const LAUNCHER = join(REPOSITORY_ROOT, 'apps/all-in-one/dist/main.js');
const BANNER_END = 'Press Ctrl-C to stop.';

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is set by the Jest global setup');
  return url;
}

describe('npm start: the start-up log', () => {
  let database: ScratchDatabase;
  let launcher: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    database = await createScratchDatabase(adminUrl(), 'start_up_logs');
  });

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGTERM');
      await once(launcher, 'exit');
    }
    await database?.drop();
  }, 60_000);

  it('is JSON lines, none of them an error or an alarm about what the launcher does next', async () => {
    launcher = spawn(process.execPath, [LAUNCHER], {
      cwd: REPOSITORY_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: String(await freePort()),
        RELAY_GATEWAY_PORT: String(await freePort()),
        CONNECTOR_GATEWAY_PORT: String(await freePort()),
        INSPECTION_BOT_PORT: String(await freePort()),
        CONSOLE_SUPERVISOR_PASSWORD: 'supervisor-password-for-start-up-logs',
        INSPECTION_BOT_API_PASSWORD: 'service-account-password-for-start-up-logs',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(launcher, 'exit');
    launcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((done, fail) => {
      const check = setInterval(() => {
        if (output.includes(BANNER_END)) {
          clearInterval(check);
          done();
        } else if (launcher?.exitCode !== null) {
          clearInterval(check);
          fail(new Error(`the launcher exited before its banner:\n${output.slice(-3000)}`));
        }
      }, 200);
    });
    launcher.kill('SIGTERM');
    await exited;

    // The bundled bot gets inspection-api's alerts and reminders (the chat channel), and the banner says so.
    expect(output).toContain('Alerts and reminders reach the chat too');
    const logLines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string; service: string; res?: unknown });
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.map((line) => line.service)).toEqual(
      expect.arrayContaining(['inspection-api', 'connector-gateway', 'relay-gateway', 'inspection-bot']),
    );
    const alarming = logLines.filter(
      (line) =>
        line.level === 'error' ||
        line.level === 'fatal' ||
        line.msg.startsWith('no user yet') ||
        (line.res !== undefined && line.level !== 'info'),
    );
    expect(alarming).toEqual([]);
  }, 180_000);
});
