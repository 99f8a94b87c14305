// Ours against offline-directline 1.3.1, side by side in one run with the same harness (issue 16, "Fast on the real
// path"): clients POST message activities to Direct Line, the relay hands them to the connector, the connector
// delivers them to an external echo bot over HTTP, and the bot replies over HTTP to the connector's
// ReplyToActivity. See README.md ("Side by side with offline-directline") for the modes and what is printed.
'use strict';
const { execFileSync, fork, spawn } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');

const ROOT = resolve(__dirname, '../..');
const ODL_VERSION = '1.3.1';
const SECRET = 'bench-directline-secret-01';

function usage() {
  return `node bench/relay/compare.js [--redis] [--rounds 3] [--seconds 10] [--warmup 5] [--connections 64]
                               [--conversations 64] [--pollers 16] [--only ours|odl] [--base dir]
  --base dir   also run ours from another checkout (built with npm run build), e.g. a worktree of an older commit,
               taking turns with this one: each round prints the CPU per request of each process as a ratio
               this/base (and --only ours leaves offline-directline out)
  --redis      relay and connector-gateway as separate processes on REDIS_URL (default: the one-process default,
               all-in-one --apps relay,connector with the in-process store, bus and delivery)
  BENCH_ODL_DIR=dir         an existing install of offline-directline (dir/node_modules/offline-directline);
                            default bench/.cache/offline-directline, installed there on first use
  BENCH_CPU_PROF=dir        write V8 CPU profiles of our server processes there (at exit)
  BENCH_LOG_LEVEL=level     LOG_LEVEL of our servers (default: the apps' default, info)`;
}

function parseArguments(argv) {
  const options = {
    redis: false,
    rounds: 3,
    seconds: 10,
    warmup: 5,
    connections: 64,
    conversations: 64,
    pollers: 16,
    only: undefined,
    base: undefined,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--redis') options.redis = true;
    else if (argument === '--help' || argument === '-h') {
      process.stdout.write(`${usage()}\n`);
      process.exit(0);
    } else if (argument.startsWith('--') && argument.slice(2) in options) {
      const name = argument.slice(2);
      const value = argv[++index];
      const text = name === 'only' || name === 'base';
      options[name] = text ? value : Number(value);
      if (!text && !(options[name] >= 0)) throw new Error(`${argument}: expected a number`);
    } else throw new Error(`unknown argument ${argument}\n${usage()}`);
  }
  if (options.redis && !process.env.REDIS_URL) throw new Error('--redis needs REDIS_URL');
  if (options.base !== undefined) {
    options.base = resolve(options.base);
    if (!existsSync(join(options.base, 'apps/relay-gateway/dist/main.js')))
      throw new Error(
        `--base ${options.base}: no built apps/relay-gateway/dist/main.js there (npm run build)`,
      );
  }
  return options;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function waitFor(url, ok = (response) => response.ok, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { method: 'GET' });
      await response.arrayBuffer();
      if (ok(response)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up in ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** User + system CPU seconds of a process so far, from /proc (Linux); undefined elsewhere. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return undefined;
  }
}

const children = [];
function track(child, name) {
  children.push(child);
  child.once('exit', (code, signal) => {
    child.exited = true;
    if (!stopping) {
      process.stderr.write(
        `${name} exited unexpectedly (${code ?? signal}); see ${child.logFile ?? 'above'}\n`,
      );
      process.exit(1);
    }
  });
  return child;
}
let stopping = false;
async function stopAll() {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((done) => {
          if (child.exited) return done();
          const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
          child.once('exit', () => {
            clearTimeout(timer);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

function forkReady(script, args, env, name) {
  const child = track(fork(script, args, { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }), name);
  return new Promise((resolveChild, reject) => {
    child.once('message', (message) => resolveChild({ child, message }));
    child.once('error', reject);
  });
}

function odlDirectory() {
  const given = process.env.BENCH_ODL_DIR;
  const directory = given ? resolve(given) : join(ROOT, 'bench/.cache/offline-directline');
  const installed = join(directory, 'node_modules/offline-directline/package.json');
  if (existsSync(installed)) {
    const { version } = JSON.parse(readFileSync(installed, 'utf8'));
    if (version !== ODL_VERSION)
      process.stderr.write(`note: offline-directline ${version} in ${directory}\n`);
    return directory;
  }
  if (given) throw new Error(`BENCH_ODL_DIR=${given} holds no node_modules/offline-directline`);
  process.stderr.write(`installing offline-directline@${ODL_VERSION} into ${directory} …\n`);
  mkdirSync(directory, { recursive: true });
  execFileSync(
    'npm',
    [
      'install',
      `offline-directline@${ODL_VERSION}`,
      '--prefix',
      directory,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
    ],
    { stdio: 'inherit' },
  );
  return directory;
}

function platformConfig(directory, botPort) {
  const path = join(directory, 'platform.yaml');
  writeFileSync(
    path,
    [
      '# compare.js: the external echo bot, anonymous (no tokens either way), as offline-directline has no auth',
      'bots:',
      '  - id: echo-bot',
      '    name: Echo bot',
      '    anonymous: true',
      `    messagingEndpoint: http://127.0.0.1:${botPort}/api/messages`,
      `    directLine: { secrets: [${SECRET}] }`,
      'relay:',
      '  tokenSigningKeys: [bench-relay-token-signing-key-0123456789abcdef]',
    ].join('\n'),
  );
  return path;
}

/**
 * Our servers: the one-process default, or (--redis) a relay and a connector-gateway on REDIS_URL; from this checkout,
 * or from `root` (--base) under the name `name`.
 */
async function startOurs(options, botPort, directory, root = ROOT, name = 'ours') {
  const relayPort = await freePort();
  const connectorPort = await freePort();
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  const base = { ...process.env };
  for (const name of ['REDIS_URL', 'DATABASE_URL', 'PLATFORM_APPS', 'NODE_OPTIONS']) delete base[name];
  const environment = {
    ...base,
    HOST: '127.0.0.1',
    RELAY_GATEWAY_PORT: String(relayPort),
    CONNECTOR_GATEWAY_PORT: String(connectorPort),
    PLATFORM_CONFIG: platformConfig(directory, botPort),
    RELAY_RATE_LIMIT_PER_TOKEN: '0',
    RELAY_RATE_LIMIT_PER_CONVERSATION: '0',
    ...(process.env.BENCH_LOG_LEVEL && { LOG_LEVEL: process.env.BENCH_LOG_LEVEL }),
  };
  const processes = [];
  const launch = (processName, script, args, env) => {
    const logFile = join(directory, `${name === 'ours' ? '' : `${name}-`}${processName}.log`);
    const out = openSync(logFile, 'a');
    const child = track(
      spawn(process.execPath, [...profile, join(root, script), ...args], {
        env,
        stdio: ['ignore', out, out],
      }),
      `${name} ${processName}`,
    );
    child.logFile = logFile;
    processes.push({ name: processName, pid: child.pid });
  };
  if (options.redis) {
    const key = 'bench-internal-key-0123456789abcdefghijklmnop';
    const shared = {
      ...environment,
      REDIS_URL: process.env.REDIS_URL,
      STORE_KEY_PREFIX: `bench-compare-${process.pid}-${name}:`,
    };
    launch('connector-gateway', 'apps/connector-gateway/dist/main.js', [], {
      ...shared,
      CONNECTOR_INTERNAL_KEY: key,
    });
    launch('relay-gateway', 'apps/relay-gateway/dist/main.js', [], {
      ...shared,
      RELAY_CONNECTOR_URL: `http://127.0.0.1:${connectorPort}`,
      RELAY_CONNECTOR_KEY: key,
    });
  } else {
    launch('all-in-one', 'apps/all-in-one/dist/main.js', ['--apps', 'relay,connector'], environment);
  }
  await waitFor(`http://127.0.0.1:${relayPort}/readyz`);
  await waitFor(`http://127.0.0.1:${connectorPort}/readyz`);
  const url = `http://127.0.0.1:${relayPort}`;
  return {
    name,
    processes,
    sendPath: (id) => `/v3/directline/conversations/${encodeURIComponent(id)}/activities`,
    async startConversation() {
      const response = await fetch(`${url}/v3/directline/conversations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}` },
      });
      if (response.status !== 201 && response.status !== 200)
        throw new Error(`ours: start conversation answered ${response.status}: ${await response.text()}`);
      const { conversationId, token } = await response.json();
      return { id: conversationId, authorization: `Bearer ${token}` };
    },
    url,
  };
}

async function startOdl(botPort) {
  const directory = odlDirectory();
  const port = await freePort();
  const child = track(
    fork(join(__dirname, 'odl-server.js'), [String(port), `http://127.0.0.1:${botPort}/api/messages`], {
      env: { ...process.env, BENCH_ODL_DIR: directory },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
    'offline-directline',
  );
  // An unknown conversation answers 400: the routes are up.
  await waitFor(`http://127.0.0.1:${port}/directline/conversations/none/activities`, (r) => r.status === 400);
  const url = `http://127.0.0.1:${port}`;
  return {
    name: 'offline-directline',
    processes: [{ name: 'offline-directline', pid: child.pid }],
    sendPath: (id) => `/directline/conversations/${encodeURIComponent(id)}/activities`,
    async startConversation() {
      const response = await fetch(`${url}/directline/conversations`, { method: 'POST' });
      if (response.status !== 200) throw new Error(`odl: start conversation answered ${response.status}`);
      const { conversationId } = await response.json();
      return { id: conversationId, authorization: undefined };
    },
    url,
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** 64 connections POSTing message activities round-robin over the conversations, for `seconds`. */
function load(target, conversations, connections, seconds) {
  let next = 0;
  const requests = [
    {
      method: 'POST',
      setupRequest(request) {
        const conversation = conversations[next++ % conversations.length];
        request.path = target.sendPath(conversation.id);
        request.headers = {
          'content-type': 'application/json',
          ...(conversation.authorization && { authorization: conversation.authorization }),
        };
        request.body = JSON.stringify({ type: 'message', from: { id: 'user1' }, text: `hello ${next}` });
        return request;
      },
    },
  ];
  return new Promise((resolveRun, reject) => {
    autocannon({ url: target.url, connections, duration: seconds, requests, timeout: 30 }, (error, result) =>
      error ? reject(error) : resolveRun(result),
    );
  });
}

/**
 * Polling end-to-end, as DirectLineJS polls: `pollers` clients, each on its own conversation, GET activities (from
 * their watermark) every 50 ms whatever they send, and POST their next message once the reply to the previous one
 * was seen; the time from a POST to the poll that saw its reply.
 */
async function pollingEndToEnd(target, conversations, seconds) {
  const samples = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    conversations.map(async (conversation, index) => {
      const headers = conversation.authorization ? { authorization: conversation.authorization } : {};
      let watermark;
      let pending;
      let round = 0;
      const send = () => {
        const text = `poll ${index} ${(round += 1)}`;
        pending = { text: `echo: ${text}`, started: performance.now() };
        void fetch(`${target.url}${target.sendPath(conversation.id)}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'message', from: { id: 'user1' }, text }),
        })
          .then((response) => response.arrayBuffer())
          .catch(() => undefined); // a send cut off when the run ends; a lost reply shows as a timeout
      };
      await sleep(Math.random() * 50);
      send();
      while (Date.now() < deadline) {
        const query = watermark === undefined ? '' : `?watermark=${watermark}`;
        const response = await fetch(`${target.url}${target.sendPath(conversation.id)}${query}`, { headers });
        const set = await response.json();
        if (set.watermark !== undefined && set.watermark !== null) watermark = set.watermark;
        if (set.activities.some((activity) => activity.text === pending.text)) {
          samples.push(performance.now() - pending.started);
          send();
        } else if (performance.now() - pending.started > 10_000)
          throw new Error(`${target.name}: no reply in 10 s`);
        await sleep(50);
      }
    }),
  );
  samples.sort((a, b) => a - b);
  return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

function cpuOf(processes) {
  return processes.map((entry) => cpuSeconds(entry.pid));
}

async function measure(target, bot, conversations, options) {
  await load(target, conversations, options.connections, options.warmup);
  const before = cpuOf(target.processes);
  const botBefore = cpuSeconds(bot.pid);
  const result = await load(target, conversations, options.connections, options.seconds);
  const after = cpuOf(target.processes);
  const botAfter = cpuSeconds(bot.pid);
  const requests = result.requests.total;
  const cpu = target.processes.map((entry, index) => ({
    name: entry.name,
    cores: (after[index] - before[index]) / options.seconds,
    msPerRequest: ((after[index] - before[index]) * 1000) / requests,
  }));
  return {
    rps: result.requests.average,
    requests,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpu,
    botMsPerRequest: ((botAfter - botBefore) * 1000) / requests,
  };
}

function line(name, figures) {
  const cpu = figures.cpu
    .map(
      (entry) =>
        `${entry.name} ${entry.msPerRequest.toFixed(3)} ms CPU/req (${entry.cores.toFixed(2)} cores)`,
    )
    .join(', ');
  return (
    `  ${name.padEnd(19)} ${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${String(figures.p50).padStart(4)} ms  ` +
    `p99 ${String(figures.p99).padStart(4)} ms  errors ${figures.errors}  ${cpu}; bot ${figures.botMsPerRequest.toFixed(3)} ms/req`
  );
}

/** CPU per request of process `at` (same name in both), this checkout over the base. */
function cpuRatio(ours, base, at) {
  return ours.cpu[at].msPerRequest / base.cpu[at].msPerRequest;
}

function baseRatios(ours, base) {
  const processes = ours.cpu.map((entry, at) => `${entry.name} ${cpuRatio(ours, base, at).toFixed(3)}`);
  return (
    `CPU per request ${processes.join(', ')}, bot ${(ours.botMsPerRequest / base.botMsPerRequest).toFixed(3)}; ` +
    `throughput ${(ours.rps / base.rps).toFixed(2)}×`
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const directory = mkdtempSync(join(tmpdir(), 'relay-compare-'));
  const { child: bot, message } = await forkReady(
    join(__dirname, 'echo-bot.js'),
    [],
    process.env,
    'echo bot',
  );
  const targets = [];
  if (options.only !== 'odl') targets.push(await startOurs(options, message.port, directory));
  if (options.base !== undefined)
    targets.push(await startOurs(options, message.port, directory, options.base, 'base'));
  if (options.only !== 'ours') targets.push(await startOdl(message.port));
  const mode = options.redis
    ? 'relay-gateway and connector-gateway as separate processes on REDIS_URL'
    : 'the one-process default (all-in-one --apps relay,connector)';
  process.stdout.write(
    `${targets.map((target) => (target.name === 'ours' ? `ours: ${mode}` : target.name === 'base' ? `base: the same from ${options.base}` : `offline-directline ${ODL_VERSION}`)).join('; ')}; external echo bot over HTTP; ${options.connections} connections, ` +
      `${options.conversations} conversations, ${options.warmup} s warm-up + ${options.seconds} s per run, ` +
      `${options.rounds} rounds; logs in ${directory}\n`,
  );
  const conversations = new Map();
  for (const target of targets) {
    const list = [];
    for (let index = 0; index < options.conversations + options.pollers; index += 1)
      list.push(await target.startConversation());
    conversations.set(target, list);
  }
  const results = new Map(targets.map((target) => [target, []]));
  for (let round = 1; round <= options.rounds; round += 1) {
    process.stdout.write(`round ${round}\n`);
    for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
      const figures = await measure(
        target,
        bot,
        conversations.get(target).slice(0, options.conversations),
        options,
      );
      results.get(target).push(figures);
      process.stdout.write(`${line(target.name, figures)}\n`);
    }
    const last = (name) => results.get(targets.find((target) => target.name === name))?.at(-1);
    const [ours, odl, base] = ['ours', 'offline-directline', 'base'].map(last);
    if (ours && odl)
      process.stdout.write(
        `  ratio ours/odl: throughput ${(ours.rps / odl.rps).toFixed(2)}×, p99 ${ours.p99} vs ${odl.p99} ms\n`,
      );
    if (ours && base) process.stdout.write(`  ratio ours/base: ${baseRatios(ours, base)}\n`);
  }
  const all = (name) => results.get(targets.find((target) => target.name === name));
  const [ours, odl, base] = ['ours', 'offline-directline', 'base'].map(all);
  if (ours && odl) {
    const ratios = ours.map((figures, index) => figures.rps / odl[index].rps);
    process.stdout.write(
      `median: ours ${median(ours.map((f) => f.rps)).toFixed(0)} req/s p99 ${median(ours.map((f) => f.p99))} ms; ` +
        `offline-directline ${median(odl.map((f) => f.rps)).toFixed(0)} req/s p99 ${median(odl.map((f) => f.p99))} ms; ` +
        `throughput ratio ${median(ratios).toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})\n`,
    );
  }
  if (ours && base) {
    const names = ours[0].cpu.map((entry) => entry.name);
    const medians = names.map((name, at) => {
      const ratios = ours.map((figures, index) => cpuRatio(figures, base[index], at));
      return `${name} ${median(ratios).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')})`;
    });
    const bot = ours.map((figures, index) => figures.botMsPerRequest / base[index].botMsPerRequest);
    process.stdout.write(
      `median CPU per request ours/base: ${medians.join('; ')}; bot ${median(bot).toFixed(3)} (the control)\n`,
    );
  }
  if (options.pollers > 0) {
    process.stdout.write(
      `polling end-to-end (POST → reply seen, 50 ms poll, ${options.pollers} clients, no other load)\n`,
    );
    for (const target of targets) {
      const polled = await pollingEndToEnd(
        target,
        conversations.get(target).slice(options.conversations),
        options.seconds,
      );
      process.stdout.write(
        `  ${target.name.padEnd(19)} ${polled.count} replies  p50 ${polled.p50.toFixed(1)} ms  p99 ${polled.p99.toFixed(1)} ms\n`,
      );
    }
  }
  bot.send('cpu');
  const counters = await new Promise((done) => bot.once('message', done));
  process.stdout.write(
    `echo bot: ${counters.replies} replies accepted, ${counters.replyErrors} refused or failed\n`,
  );
}

main()
  .catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
