// How long a fresh `npm start` takes, as a new user sees it (issue 16: "a fresh npm start reaches all-ready in
// < 20 s, with visible progress while it builds"). A script, not a test: it measures, it does not assert.
//
//   node bench/startup/run.js [--runs 3] [--port-base 9700]
//
// Each run clones the repository's HEAD into a temporary directory (no dist/, no turbo cache, no .data/: nothing
// built and no database yet), links the installed node_modules into it (what `npm install` left, as after a fresh
// install), runs `npm start` there on the embedded defaults (no DATABASE_URL / REDIS_URL) on ports of its own, and
// prints the seconds from the start to the first line on screen, to the end of the build, and to the banner that
// says every app is ready; then stops it with SIGINT (the launcher's graceful shutdown) and removes the directory.
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, existsSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const RUNS = argument('runs', 3);
const PORT_BASE = argument('port-base', 9700);
const ROOT = resolve(__dirname, '..', '..');
const out = (line) => process.stdout.write(`${line}\n`);

/** Every node_modules folder npm install made: the root's and the workspaces' own. */
function installedModuleFolders() {
  const folders = ['node_modules'];
  for (const group of ['apps', 'libs']) {
    for (const name of readdirSync(join(ROOT, group))) {
      if (existsSync(join(ROOT, group, name, 'node_modules')))
        folders.push(join(group, name, 'node_modules'));
    }
  }
  if (existsSync(join(ROOT, 'infra', 'node_modules'))) folders.push(join('infra', 'node_modules'));
  return folders;
}

function freshCheckout() {
  const directory = mkdtempSync(join(tmpdir(), 'fieldops-startup-'));
  const repository = join(directory, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, repository]);
  execFileSync('git', [
    '-C',
    repository,
    'checkout',
    '--quiet',
    execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD']).toString().trim(),
  ]);
  // Hard links: the same files npm install wrote, without copying hundreds of megabytes.
  for (const folder of installedModuleFolders())
    execFileSync('cp', ['-al', join(ROOT, folder), join(repository, folder)]);
  return { directory, repository };
}

function oneRun(index) {
  const { directory, repository } = freshCheckout();
  if (process.env.BENCH_DEBUG) out(`checkout ready in ${directory}`);
  const environment = { ...process.env };
  delete environment.DATABASE_URL;
  delete environment.REDIS_URL;
  Object.assign(environment, {
    INSPECTION_API_PORT: String(PORT_BASE),
    RELAY_GATEWAY_PORT: String(PORT_BASE + 10),
    CONNECTOR_GATEWAY_PORT: String(PORT_BASE + 20),
    INSPECTION_BOT_PORT: String(PORT_BASE + 30),
    EMBEDDED_POSTGRES_PORT: String(PORT_BASE + 40),
    FORCE_COLOR: '0',
  });
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    const figures = { firstOutput: undefined, built: undefined, ready: undefined };
    const child = spawn('npm', ['start'], {
      cwd: repository,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // npm start is npm → sh → node: signal the whole process group, as Ctrl-C in a terminal does.
    const stop = () => {
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        // already gone
      }
    };
    let transcript = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`run ${index}: no banner within 180 s\n${transcript.slice(-3000)}`));
    }, 180_000);
    const onData = (chunk) => {
      const text = chunk.toString();
      if (process.env.BENCH_DEBUG) process.stderr.write(text);
      transcript += text;
      figures.firstOutput ??= seconds();
      // turbo's summary line ends the build ("Tasks: … successful"); the launcher prints its banner once every app is
      // ready.
      if (figures.built === undefined && /Tasks:\s+\d+ successful/.test(transcript))
        figures.built = seconds();
      if (figures.ready === undefined && transcript.includes('The platform is running')) {
        figures.ready = seconds();
        clearTimeout(timer);
        stop();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => {
      clearTimeout(timer);
      rmSync(directory, { recursive: true, force: true });
      if (figures.ready === undefined)
        reject(new Error(`run ${index}: npm start ended before its banner\n${transcript.slice(-3000)}`));
      else resolvePromise(figures);
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (value) => (value === undefined ? '   –  ' : `${value.toFixed(1).padStart(5)} s`);

(async () => {
  out(
    `fresh npm start (clone of HEAD, no dist, no turbo cache, no .data), ${RUNS} run(s), ports from ${PORT_BASE}`,
  );
  const results = [];
  for (let index = 1; index <= RUNS; index += 1) {
    const figures = await oneRun(index);
    results.push(figures);
    out(
      `  run ${index}: first line on screen ${format(figures.firstOutput)}, build done ${format(figures.built)}, ` +
        `all apps ready ${format(figures.ready)}`,
    );
  }
  const pick = (key) => results.map((figures) => figures[key]).filter((value) => value !== undefined);
  out(
    `median: first line on screen ${format(median(pick('firstOutput')))}, build done ${format(median(pick('built')))}, ` +
      `all apps ready ${format(median(pick('ready')))} (target < 20 s)`,
  );
})().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
