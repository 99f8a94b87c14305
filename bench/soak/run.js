#!/usr/bin/env node
// Soak run (a script, not a test): a sustained mixed load through nginx for a configurable duration.
//   npm run build
//   node bench/soak/run.js --duration 10m            # boots the stack (nginx, redis-server, the apps, an echo bot)
//   node bench/soak/run.js --duration 90s --url http://127.0.0.1:8080 --secret … --admin user:password
//   node bench/soak/run.js --shape relay --duration 30m --chat-rate 2000   # the Redis-mode target's processes only
// See bench/soak/README.md for every option.
'use strict';

const { mkdir, mkdtemp, readdir, rm, stat } = require('node:fs/promises');
const http = require('node:http');
const https = require('node:https');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { compareHeapSnapshots } = require('./heap-compare');
const { startRelayShape } = require('./relay-shape');
const { cpuWithChildrenMilliseconds } = require('../capacity/process-stats');

const root = path.resolve(__dirname, '..', '..');
const WebSocket = require(require.resolve('ws', { paths: [root] }));
const { startLocalStack } = require(path.join(root, 'infra/dist/index.js'));
const { createScratchDatabase, EmbeddedPostgresServer } = require(
  path.join(root, 'libs/database/dist/index.js'),
);

const { values: options } = parseArgs({
  options: {
    shape: { type: 'string', default: process.env.SOAK_SHAPE ?? 'platform' },
    'no-nginx': { type: 'boolean', default: process.env.SOAK_NO_NGINX === '1' },
    'port-base': { type: 'string', default: process.env.SOAK_PORT_BASE },
    duration: { type: 'string', default: process.env.SOAK_DURATION ?? '10m' },
    relays: { type: 'string', default: process.env.SOAK_RELAYS ?? '2' },
    conversations: { type: 'string', default: process.env.SOAK_CONVERSATIONS },
    'api-workers': { type: 'string', default: process.env.SOAK_API_WORKERS },
    'chat-pause-ms': { type: 'string', default: process.env.SOAK_CHAT_PAUSE_MS ?? '250' },
    'chat-rate': { type: 'string', default: process.env.SOAK_CHAT_RATE },
    'api-rate': { type: 'string', default: process.env.SOAK_API_RATE },
    'messages-per-conversation': {
      type: 'string',
      default: process.env.SOAK_MESSAGES_PER_CONVERSATION,
    },
    'retention-seconds': { type: 'string', default: process.env.SOAK_RETENTION_SECONDS },
    'report-every': { type: 'string', default: process.env.SOAK_REPORT_EVERY ?? '60s' },
    url: { type: 'string', default: process.env.SOAK_TARGET_URL },
    secret: { type: 'string', default: process.env.SOAK_DIRECTLINE_SECRET },
    admin: { type: 'string', default: process.env.SOAK_ADMIN },
    json: { type: 'string', default: process.env.SOAK_JSON_REPORT },
    'baseline-at': { type: 'string', default: process.env.SOAK_BASELINE_AT ?? '5m' },
    'heap-snapshots': { type: 'string', default: process.env.SOAK_HEAP_SNAPSHOTS },
  },
});

/** `90s`, `10m`, `1h` or a number of seconds → milliseconds. */
function parseDuration(text) {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(text).trim());
  if (!match) throw new Error(`not a duration: ${text} (use e.g. 90s, 10m, 1h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'];
  return Number(match[1]) * unit;
}

/**
 * `platform`: the whole stack through nginx (inspection API and chat with a stock botbuilder bot behind
 * connector-gateway). `relay`: the Redis-mode target's processes (relay-gateway on a redis-server of its own,
 * bench/relay's bot replying through Redis, nginx unless --no-nginx) and chat only, at rates near 2,000 messages/s.
 */
const SHAPE = options.shape;
if (!['platform', 'relay'].includes(SHAPE)) throw new Error(`--shape is platform or relay, not ${SHAPE}`);
if (SHAPE === 'relay' && options.url) throw new Error('--shape relay boots its own processes: no --url');
const DURATION_MS = parseDuration(options.duration);
const REPORT_EVERY_MS = parseDuration(options['report-every']);
const RELAYS = Number(options.relays);
// The relay shape's defaults: 400 conversations (at 2,000 messages/s each sends 5/s, one at a time, so its answer
// has 200 ms before the loop falls behind), and no inspection API load (no inspection-api in that shape).
const CONVERSATIONS = Number(options.conversations ?? (SHAPE === 'relay' ? 400 : 20));
const API_WORKERS = Number(options['api-workers'] ?? (SHAPE === 'relay' ? 0 : 8));
if (SHAPE === 'relay' && API_WORKERS > 0)
  throw new Error('--shape relay has no inspection API: --api-workers 0');
const CHAT_PAUSE_MS = Number(options['chat-pause-ms']);
// Fixed rates (messages/s over all conversations, requests/s over all API workers): each loop keeps a schedule
// instead of pausing after each answer, so the load stays the same whether the machine is busy or quiet (a closed
// loop speeds up when the machine gets quieter, and the apps' heaps grow with the allocation rate).
const CHAT_RATE = options['chat-rate'] ? Number(options['chat-rate']) : undefined;
const API_RATE = options['api-rate'] ? Number(options['api-rate']) : undefined;
// A user starts a new conversation after this many messages (0: one conversation per loop for the whole run); with
// --retention-seconds (the gateways' CONVERSATION_RETENTION_SECONDS) finished conversations leave Redis, so its
// memory reaches a steady state instead of growing with every retained activity.
// The relay shape turns conversations over by default (100 messages each, kept 60 s after their last write: the
// gateways' minimum retention), so Redis reaches its steady state within minutes (bench/soak/README.md).
const MESSAGES_PER_CONVERSATION = Number(
  options['messages-per-conversation'] ?? (SHAPE === 'relay' ? 100 : 0),
);
const RETENTION_SECONDS = options['retention-seconds'] ?? (SHAPE === 'relay' ? '60' : undefined);

/**
 * A loop's schedule at `perSecond` of `loops` loops: `wait()` sleeps until the next slot; `late` counts missed ones,
 * from the second wait on (the loop's set-up before its first message, e.g. its first conversation, is not the rate).
 */
class Schedule {
  constructor(perSecond, loops, index) {
    this.intervalMs = (loops / perSecond) * 1000;
    this.next = Date.now() + (this.intervalMs * index) / loops;
    this.late = 0;
    this.waited = false;
  }
  async wait() {
    const now = Date.now();
    if (this.next < now - this.intervalMs) {
      if (this.waited) this.late += 1;
      this.next = now;
    }
    this.waited = true;
    await sleep(Math.max(0, this.next - now));
    this.next += this.intervalMs;
  }
}
const schedules = [];
// RSS is compared between this mark (warm: JIT done, pools and caches filled) and the end; a short run uses its middle.
const BASELINE_MS = Math.min(parseDuration(options['baseline-at']), DURATION_MS / 2);
/** Growth of RSS from the mark to the end above which a process is flagged (the issue's 10 %). */
const FLAT_TOLERANCE = 0.1;
const HEAP_DIRECTORY = options['heap-snapshots'] && path.resolve(options['heap-snapshots']);
const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Latencies and outcomes of one kind of operation. */
class Operation {
  constructor(name) {
    this.name = name;
    this.latencies = [];
    this.errors = 0;
    this.tolerated = 0;
    this.errorSamples = new Map();
  }
  ok(ms) {
    this.latencies.push(ms);
  }
  fail(reason) {
    this.errors += 1;
    this.errorSamples.set(reason, (this.errorSamples.get(reason) ?? 0) + 1);
  }
  percentile(q, from = 0) {
    const sorted = this.latencies.slice(from).sort((a, b) => a - b);
    if (sorted.length === 0) return NaN;
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }
}

const operations = new Map();
const operation = (name) => {
  if (!operations.has(name)) operations.set(name, new Operation(name));
  return operations.get(name);
};

// node:http with keep-alive connections rather than fetch: fetch cost this load generator about three times the CPU
// per message (bench/soak/README.md), which counts at 2,000 messages/s on a machine the stack shares with it.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 1024 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 1024 }),
};

/** One HTTP request (`init`: method, headers, body as a string); resolves with the status and the body's text. */
function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const payload = body === undefined ? undefined : Buffer.from(body);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method,
        agent: agents[target.protocol],
        headers: payload ? { ...headers, 'content-length': payload.length } : headers,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.setTimeout(30_000, () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })),
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * Runs one HTTP request and records it under `name`: 2xx is a success, a status in `tolerated` (the login throttle's
 * 429, which the caller waits out and retries) is counted apart, anything else is an error.
 */
async function timed(name, url, init = {}, tolerated = []) {
  const started = performance.now();
  try {
    const response = await send(url, init);
    const body = response.text;
    const ms = performance.now() - started;
    if (response.status >= 200 && response.status < 300) {
      operation(name).ok(ms);
      return { status: response.status, body: body ? JSON.parse(body) : undefined };
    }
    if (tolerated.includes(response.status)) operation(name).tolerated += 1;
    else operation(name).fail(`HTTP ${response.status}`);
    return { status: response.status, body: undefined };
  } catch (error) {
    operation(name).fail(error.code ?? error.message);
    return { status: 0, body: undefined };
  }
}

// ---------------------------------------------------------------- inspection API load
async function apiToken(base, username, password) {
  // The login throttle (429) may refuse a burst of sign-ins of one user: wait and try again, as a client would.
  for (let attempt = 1; ; attempt += 1) {
    const answer = await timed(
      'POST /api/token/',
      `${base}/api/token/`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      },
      [429],
    );
    if (answer.body?.access) return answer.body.access;
    if (answer.status !== 429 || attempt >= 6) throw new Error(`no inspection token (HTTP ${answer.status})`);
    await sleep(10_000);
  }
}

async function apiWorker(base, credentials, deviceIds, until, workerIndex) {
  const [username, password] = credentials;
  let token = await apiToken(base, username, password);
  let round = 0;
  const schedule = API_RATE ? new Schedule(API_RATE, API_WORKERS, workerIndex) : undefined;
  if (schedule) schedules.push(schedule);
  while (Date.now() < until) {
    round += 1;
    await schedule?.wait();
    // A fresh token now and then, as clients whose access token expired would.
    if (round % 50 === 0) token = await apiToken(base, username, password).catch(() => token);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const device = deviceIds[Math.floor(Math.random() * deviceIds.length)];
    const pick = Math.random();
    if (pick < 0.35) {
      await timed('GET /api/devices/', `${base}/api/devices/?page_size=20&page=${1 + (round % 3)}`, {
        headers,
      });
    } else if (pick < 0.55) {
      await timed('GET /api/devices/{id}/', `${base}/api/devices/${device}/`, { headers });
    } else if (pick < 0.75) {
      await timed('GET /api/records/', `${base}/api/records/?page_size=20&device=${device}`, { headers });
    } else {
      await timed('POST /api/records/', `${base}/api/records/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          status: ['ok', 'warn', 'fail'][round % 3],
          device,
          value: String(round),
          note: `soak worker ${workerIndex} round ${round}`,
        }),
      });
    }
  }
}

async function seedDevices(base, credentials, count) {
  const token = await apiToken(base, credentials[0], credentials[1]);
  const run = Date.now().toString(36);
  const ids = [];
  for (let index = 0; index < count; index += 1) {
    const answer = await timed('POST /api/devices/', `${base}/api/devices/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Soak device ${index}`,
        code: `SOAK-${run}-${index}`,
        location: 'Soak hall',
      }),
    });
    if (!answer.body?.id) throw new Error(`could not create a device (HTTP ${answer.status})`);
    ids.push(answer.body.id);
  }
  return ids;
}

// ---------------------------------------------------------------- relay conversations with the bot
const chat = {
  conversations: 0,
  sent: 0,
  answered: 0,
  duplicates: 0,
  gaps: 0,
  reconnects: 0,
  socketsOpen: 0,
  /** Conversations that expired while their loop was still sending (404 on a send; a new one is started). */
  expired: 0,
};
const endToEnd = operation('chat: send → bot answer on the socket');

/**
 * One user's loop: conversations one after another (a new one after --messages-per-conversation messages, as users
 * start a new inspection), until the end of the run. The schedule (or pause) is the loop's, across its conversations.
 */
async function conversationLoop(domain, secret, until, index) {
  // The loops start their first conversations spread over the first 10 s (at most a tenth of the run), not all at
  // once: a burst of hundreds of token requests and conversation starts is not the load the run is about.
  await sleep((index / CONVERSATIONS) * Math.min(10_000, DURATION_MS / 10));
  // Between messages: keep the fixed rate's schedule, or pause --chat-pause-ms (± 50 %).
  const schedule = CHAT_RATE ? new Schedule(CHAT_RATE, CONVERSATIONS, index) : undefined;
  if (schedule) schedules.push(schedule);
  const pause = () => (schedule ? schedule.wait() : sleep(CHAT_PAUSE_MS * (0.5 + Math.random())));
  while (Date.now() < until) {
    chat.conversations += 1;
    await conversation(domain, secret, until, index, pause);
  }
}

async function conversation(domain, secret, until, index, pause) {
  const generated = await timed('POST /v3/directline/tokens/generate', `${domain}/tokens/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user: { id: `soak-user-${index}` } }),
  });
  if (!generated.body) throw new Error(`tokens/generate answered HTTP ${generated.status}`);
  const { token } = generated.body;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = await timed('POST /v3/directline/conversations', `${domain}/conversations`, {
    method: 'POST',
    headers: auth,
  });
  if (!started.body) throw new Error(`start conversation answered HTTP ${started.status}`);
  const { conversationId } = started.body;
  const pending = new Map(); // activity id → send time
  const waiting = new Map(); // activity id → resolve
  const early = new Map(); // activity id → when its answer arrived, before the send returned
  let lastSeq = -1;
  let socket;

  const openSocket = (streamUrl) =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(streamUrl);
      ws.on('open', () => {
        chat.socketsOpen += 1;
        resolve(ws);
      });
      ws.on('error', reject);
      ws.on('close', () => (chat.socketsOpen -= 1));
      ws.on('message', (data) => {
        const text = data.toString();
        if (!text) return;
        for (const activity of JSON.parse(text).activities) {
          const seq = Number(activity.id.split('|').pop());
          if (seq <= lastSeq) chat.duplicates += 1;
          else if (seq !== lastSeq + 1) chat.gaps += 1;
          lastSeq = Math.max(lastSeq, seq);
          if (activity.replyToId && pending.has(activity.replyToId)) {
            endToEnd.ok(performance.now() - pending.get(activity.replyToId));
            pending.delete(activity.replyToId);
            chat.answered += 1;
            waiting.get(activity.replyToId)?.();
            waiting.delete(activity.replyToId);
          } else if (activity.replyToId) {
            early.set(activity.replyToId, performance.now());
          }
        }
      });
    });

  socket = await openSocket(started.body.streamUrl);
  let round = 0;
  let sentHere = 0;
  while (Date.now() < until && (MESSAGES_PER_CONVERSATION === 0 || sentHere < MESSAGES_PER_CONVERSATION)) {
    round += 1;
    if (socket.readyState !== WebSocket.OPEN) {
      // Reconnect with the watermark, as DirectLineJS does after a dropped socket.
      chat.reconnects += 1;
      const again = await timed(
        'GET /v3/directline/conversations/{id}',
        `${domain}/conversations/${conversationId}?watermark=${lastSeq < 0 ? '' : lastSeq}`,
        { headers: auth },
      );
      if (again.body) socket = await openSocket(again.body.streamUrl).catch(() => socket);
      else await sleep(1000);
      continue;
    }
    const sentAt = performance.now();
    const answer = await timed(
      'POST /v3/directline/conversations/{id}/activities',
      `${domain}/conversations/${conversationId}/activities`,
      {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          type: 'message',
          from: { id: `soak-user-${index}` },
          text: `soak ${index} message ${round}`,
        }),
      },
    );
    if (answer.body?.id) {
      chat.sent += 1;
      sentHere += 1;
      // The bot answers inside the send (before the POST returns), so the answer may already be in.
      if (early.has(answer.body.id)) {
        endToEnd.ok(early.get(answer.body.id) - sentAt);
        early.delete(answer.body.id);
        chat.answered += 1;
        await pause();
        continue;
      }
      const answered = new Promise((resolve) => waiting.set(answer.body.id, resolve));
      pending.set(answer.body.id, sentAt);
      await Promise.race([answered, sleep(15_000)]);
      if (pending.has(answer.body.id)) {
        pending.delete(answer.body.id);
        waiting.delete(answer.body.id);
        endToEnd.fail('no bot answer on the socket within 15 s');
      }
    } else if (answer.status === 404) {
      // The conversation is gone: its retention ran out while this loop could not send (a stall longer than
      // --retention-seconds). The send is counted as an error; the user starts a new conversation, as one would.
      chat.expired += 1;
      break;
    }
    await pause();
  }
  socket.close();
}

// ---------------------------------------------------------------- heap snapshots
/** The stack's Node apps: started with --heap-snapshots, each writes a heap snapshot on SIGUSR2. */
const nodeApps = (stack) =>
  stack
    .processes()
    .filter((each) => /^(inspection-api|connector-gateway|relay-gateway|bench-bot)/.test(each.name));

/** Waits for the snapshot a process writes after SIGUSR2 (a new `Heap.*.<pid>.*.heapsnapshot` whose size settled). */
async function waitForSnapshot(pid, existing) {
  const deadline = Date.now() + 180_000;
  let file;
  let lastSize = -1;
  while (Date.now() < deadline) {
    await sleep(500);
    file ??= (await readdir(HEAP_DIRECTORY)).find(
      (name) => !existing.has(name) && name.includes(`.${pid}.`) && name.endsWith('.heapsnapshot'),
    );
    if (!file) continue;
    const { size } = await stat(path.join(HEAP_DIRECTORY, file));
    if (size > 0 && size === lastSize) return path.join(HEAP_DIRECTORY, file);
    lastSize = size;
  }
  throw new Error(`no heap snapshot from process ${pid} within 180 s`);
}

/** One heap snapshot per Node app, one app at a time (writing one pauses that process for a few seconds). */
async function writeHeapSnapshots(stack, label) {
  const files = new Map();
  for (const app of nodeApps(stack)) {
    if (app.pid === undefined) continue;
    const existing = new Set(await readdir(HEAP_DIRECTORY));
    process.kill(app.pid, 'SIGUSR2');
    const written = await waitForSnapshot(app.pid, existing);
    const file = path.join(HEAP_DIRECTORY, `${label}-${app.name.replace('#', '-')}.heapsnapshot`);
    await require('node:fs/promises').rename(written, file);
    files.set(app.name, file);
  }
  say(`  heap snapshots (${label}): ${[...files.values()].join(', ')}`);
  return files;
}

// ---------------------------------------------------------------- report
const mb = (bytes) => (bytes === undefined ? '   gone' : `${(bytes / 1048576).toFixed(1).padStart(7)}`);

function memorySnapshot(stack) {
  return stack ? new Map(stack.processes().map((p) => [p.name, p.residentSetBytes()])) : new Map();
}

/** CPU milliseconds so far of every process of the stack (nginx with its workers) and of this load generator. */
function cpuSnapshot(stack) {
  const usage = process.cpuUsage();
  return new Map([
    ...(stack ? stack.processes().map((p) => [p.name, cpuWithChildrenMilliseconds(p.pid)]) : []),
    ['load generator (this)', (usage.user + usage.system) / 1000],
  ]);
}

/** A Node app's V8 heap (used, total) and external memory, from its /metrics (prom-client's default metrics). */
async function heapOf(url) {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
    return {
      used: value('nodejs_heap_size_used_bytes'),
      total: value('nodejs_heap_size_total_bytes'),
      external: value('nodejs_external_memory_bytes'),
    };
  } catch {
    return undefined;
  }
}

/** Heaps of the stack's Node apps: name → heap (RSS alone cannot tell a JavaScript leak from native memory). */
async function heapSnapshotOfApps(stack) {
  if (!stack) return new Map();
  // The relay shape has no inspection-api or connector-gateway (and bench/relay's bot serves no /metrics).
  const apps = [stack.inspectionApi, stack.connectorGateway, ...stack.relays].filter(Boolean);
  return new Map(await Promise.all(apps.map(async (app) => [app.name, await heapOf(app.url)])));
}

function printOperations(elapsedSeconds) {
  say(
    `${'operation'.padEnd(52)} ${'count'.padStart(8)} ${'per s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const op of [...operations.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const count = op.latencies.length;
    say(
      `${op.name.padEnd(52)} ${String(count).padStart(8)} ${(count / elapsedSeconds).toFixed(1).padStart(8)} ${op.percentile(0.5).toFixed(1).padStart(8)} ${op.percentile(0.99).toFixed(1).padStart(8)} ${String(op.errors).padStart(7)}` +
        (op.errors ? `  (${[...op.errorSamples].map(([reason, n]) => `${reason}: ${n}`).join(', ')})` : '') +
        (op.tolerated ? `  (${op.tolerated} throttled and retried)` : ''),
    );
  }
}

/** Set when a request failed: the work directory (the apps' logs) is kept to find out why. */
let keepWorkDirectory = false;
async function removeWorkDirectory(directory) {
  if (keepWorkDirectory)
    say(`kept ${directory} (requests failed: the apps' logs are in it; remove it when done)`);
  else await rm(directory, { recursive: true, force: true });
}

async function main() {
  const cleanups = [];
  let stack;
  try {
    let base = options.url?.replace(/\/$/, '');
    let secret = options.secret;
    let credentials = options.admin?.split(':');
    const heapSnapshotEnvironment = {};
    if (HEAP_DIRECTORY && !base) {
      await mkdir(HEAP_DIRECTORY, { recursive: true });
      heapSnapshotEnvironment.NODE_OPTIONS = `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_DIRECTORY}`;
    }
    if (!base && SHAPE === 'relay') {
      const workDirectory = await mkdtemp(path.join(tmpdir(), 'fieldops-soak-'));
      cleanups.unshift(() => removeWorkDirectory(workDirectory));
      stack = await startRelayShape({
        workDirectory,
        retentionSeconds: RETENTION_SECONDS,
        nodeOptions: heapSnapshotEnvironment.NODE_OPTIONS,
        nginx: !options['no-nginx'],
        portBase: options['port-base'] ? Number(options['port-base']) : undefined,
      });
      cleanups.unshift(() => stack.stop());
      base = stack.publicUrl;
      secret = stack.credentials.directLineSecret;
      say(
        `stack (relay shape): ${options['no-nginx'] ? `relay-gateway ${base} (no nginx)` : `nginx ${base} → relay-gateway ${stack.relays[0].url}`}, ` +
          `bench/relay's bot in its own process, redis-server ${stack.redisUrl} (AOF, fsync every second)`,
      );
      say(`logs and data: ${workDirectory}`);
    } else if (!base) {
      const workDirectory = await mkdtemp(path.join(tmpdir(), 'fieldops-soak-'));
      cleanups.unshift(() => removeWorkDirectory(workDirectory));
      let adminUrl = process.env.DATABASE_URL;
      if (!adminUrl) {
        const server = await EmbeddedPostgresServer.start({
          dataDir: path.join(workDirectory, 'postgres'),
          persistent: false,
        });
        cleanups.unshift(() => server.stop());
        adminUrl = server.url;
      }
      const database = await createScratchDatabase(adminUrl, 'soak');
      const retentionEnvironment = RETENTION_SECONDS
        ? { CONVERSATION_RETENTION_SECONDS: RETENTION_SECONDS }
        : {};
      cleanups.unshift(() => database.drop());
      stack = await startLocalStack({
        repositoryRoot: root,
        workDirectory,
        databaseUrl: database.url,
        relayInstances: RELAYS,
        extraEnvironment: {
          // The soak measures the platform, not the per-token abuse limits.
          'relay-gateway': {
            RELAY_RATE_LIMIT_PER_TOKEN: '0',
            RELAY_RATE_LIMIT_PER_CONVERSATION: '0',
            ...retentionEnvironment,
            ...heapSnapshotEnvironment,
          },
          'connector-gateway': { ...retentionEnvironment, ...heapSnapshotEnvironment },
          'inspection-api': heapSnapshotEnvironment,
        },
      });
      cleanups.unshift(() => stack.stop());
      base = stack.publicUrl;
      secret = stack.credentials.directLineSecret;
      credentials = [stack.credentials.adminUsername, stack.credentials.adminPassword];
      say(
        `stack: nginx ${base}, ${RELAYS} relay-gateway processes, redis-server (AOF), PostgreSQL ${adminUrl.replace(/\/\/[^@]*@/, '//')}`,
      );
      say(`logs and data: ${workDirectory}`);
    } else if (!secret || !credentials || credentials.length !== 2) {
      throw new Error('--url needs --secret <Direct Line secret> and --admin <username:password>');
    }
    const domain = `${base}/v3/directline`;

    const deviceIds = API_WORKERS > 0 ? await seedDevices(base, credentials, 50) : [];
    const memoryAtStart = memorySnapshot(stack);
    const startedAt = Date.now();
    const until = startedAt + DURATION_MS;
    say(
      `soak: ${options.duration} of ${API_WORKERS} API workers (${API_RATE ? `${API_RATE} requests/s` : 'closed loops'}) and ` +
        `${CONVERSATIONS} conversations with the bot (${CHAT_RATE ? `${CHAT_RATE} messages/s` : `pause ${CHAT_PAUSE_MS} ms`}` +
        `${MESSAGES_PER_CONVERSATION ? `, a new one every ${MESSAGES_PER_CONVERSATION} messages` : ''}` +
        `${RETENTION_SECONDS ? `, retention ${RETENTION_SECONDS} s` : ''}); ` +
        `RSS compared between the ${(BASELINE_MS / 60_000).toFixed(1)}-minute mark and the end`,
    );
    // The mark's reading (and, with --heap-snapshots, a snapshot of every Node app first, so both readings include
    // whatever memory writing a snapshot leaves behind).
    let memoryAtMark = new Map();
    let markedAt = startedAt + BASELINE_MS;
    let heapAtMark = new Map();
    let cpuAtMark = new Map();
    let sentAtMark = 0;
    let snapshotsAtMark;
    const mark = sleep(BASELINE_MS).then(async () => {
      if (HEAP_DIRECTORY && stack) snapshotsAtMark = await writeHeapSnapshots(stack, 'mark');
      memoryAtMark = memorySnapshot(stack);
      markedAt = Date.now();
      cpuAtMark = cpuSnapshot(stack);
      sentAtMark = chat.sent;
      heapAtMark = await heapSnapshotOfApps(stack);
    });

    const progress = setInterval(async () => {
      const seconds = (Date.now() - startedAt) / 1000;
      const heaps = [...(await heapSnapshotOfApps(stack))]
        .map(([name, heap]) => `${name} ${heap ? mb(heap.used).trim() : '-'}`)
        .join(', ');
      const requests = [...operations.values()].reduce((sum, op) => sum + op.latencies.length, 0);
      const errors = [...operations.values()].reduce((sum, op) => sum + op.errors, 0);
      const memory = stack
        ? [...memorySnapshot(stack)].map(([name, bytes]) => `${name} ${mb(bytes).trim()}`).join(', ')
        : '';
      say(
        `  ${seconds.toFixed(0)} s: ${requests} operations, ${errors} errors, chat ${chat.answered}/${chat.sent} answered; RSS MB: ${memory}` +
          (stack ? `; V8 heap used MB: ${heaps}` : ''),
      );
    }, REPORT_EVERY_MS);
    progress.unref();

    const peak = new Map();
    const samples = new Map(); // process → [{ at, bytes }] every 2 s
    const sampler = setInterval(() => {
      const at = Date.now();
      for (const [name, bytes] of memorySnapshot(stack)) {
        if (bytes === undefined) continue;
        peak.set(name, Math.max(peak.get(name) ?? 0, bytes));
        if (!samples.has(name)) samples.set(name, []);
        samples.get(name).push({ at, bytes });
      }
    }, 2000);
    sampler.unref();

    const results = await Promise.allSettled([
      ...Array.from({ length: API_WORKERS }, (_, index) =>
        apiWorker(base, credentials, deviceIds, until, index),
      ),
      ...Array.from({ length: CONVERSATIONS }, (_, index) => conversationLoop(domain, secret, until, index)),
    ]);
    await mark;
    clearInterval(progress);
    clearInterval(sampler);
    // The end of the samples: the last minute's median is read up to here, not up to after the end's heap snapshots
    // (which take a while and leave no samples behind them).
    const finishedAt = Date.now();
    const elapsedSeconds = (finishedAt - startedAt) / 1000;
    const cpuAtEnd = cpuSnapshot(stack);
    const sentAfterMark = chat.sent - sentAtMark;
    const secondsAfterMark = (Date.now() - markedAt) / 1000;
    const memoryAtEnd = memorySnapshot(stack);
    const heapAtEnd = await heapSnapshotOfApps(stack);
    const snapshotsAtEnd =
      HEAP_DIRECTORY && stack && snapshotsAtMark ? await writeHeapSnapshots(stack, 'end') : undefined;
    const crashed = results.filter((result) => result.status === 'rejected');

    say('');
    say(`soak finished after ${elapsedSeconds.toFixed(1)} s`);
    printOperations(elapsedSeconds);
    // HTTP requests only (the end-to-end chat measurement is not a request of its own).
    const requests = [...operations.values()].filter((op) => !op.name.startsWith('chat:'));
    const total = requests.reduce((sum, op) => sum + op.latencies.length, 0);
    const errors = [...operations.values()].reduce((sum, op) => sum + op.errors, 0);
    say('');
    say(
      `throughput: ${(total / elapsedSeconds).toFixed(1)} successful HTTP requests/s${SHAPE === 'relay' && options['no-nginx'] ? ' (straight to the relay)' : options.url ? '' : ' through nginx'}; errors: ${errors}; workers that gave up: ${crashed.length}`,
    );
    say(
      `chat: ${chat.conversations} conversations, ${chat.sent} messages sent (${(chat.sent / elapsedSeconds).toFixed(1)}/s), ${chat.answered} answered on the socket (unanswered ${chat.sent - chat.answered}), duplicates ${chat.duplicates}, gaps ${chat.gaps}, socket reconnects ${chat.reconnects}, conversations expired under a loop ${chat.expired}`,
    );
    const late = schedules.reduce((sum, schedule) => sum + schedule.late, 0);
    if (CHAT_RATE && sentAfterMark > 0) {
      const achieved = sentAfterMark / secondsAfterMark;
      say(
        `chat rate from the mark to the end: ${achieved.toFixed(1)} messages/s of ${CHAT_RATE} offered (${((achieved / CHAT_RATE) * 100).toFixed(1)} %)`,
      );
    }
    if (CHAT_RATE || API_RATE) {
      say(
        late === 0
          ? 'fixed rates held: no loop fell a whole interval behind its schedule'
          : `fixed rates NOT held: loops fell a whole interval behind their schedule ${late} times (the stack, or this machine, could not keep up)`,
      );
    }
    for (const failure of crashed.slice(0, 5))
      say(`  worker failed: ${failure.reason?.message ?? failure.reason}`);
    // CPU after the mark: whether the machine had room for the rate (a process near 100 % of a core, or the sum near
    // the machine's cores, means the rate is the machine's limit, not the stack's).
    const cpu = [...cpuAtEnd].map(([name, ms]) => {
      const used = ms - (cpuAtMark.get(name) ?? NaN);
      return {
        process: name,
        percentOfCore: used / 10 / secondsAfterMark,
        msPerMessage: used / sentAfterMark,
      };
    });
    if (stack && sentAfterMark > 0) {
      say(
        `CPU from the mark to the end (${sentAfterMark} messages in ${secondsAfterMark.toFixed(0)} s): ` +
          cpu
            .map(
              (each) =>
                `${each.process} ${each.percentOfCore.toFixed(0)} % of a core (${each.msPerMessage.toFixed(3)} ms per message)`,
            )
            .join(', '),
      );
    }
    // RSS swings with each major GC (V8 gives heap pages back and takes them again), so one reading can be a dip or a
    // crest: the verdict compares the median of the samples in the minute after the mark with that of the last minute.
    const windowMs = Math.min(60_000, BASELINE_MS, (finishedAt - markedAt) / 2);
    const medianBetween = (name, from, to) => {
      const values = (samples.get(name) ?? [])
        .filter((sample) => sample.at >= from && sample.at <= to)
        .map((sample) => sample.bytes)
        .sort((a, b) => a - b);
      return values.length ? values[Math.floor(values.length / 2)] : undefined;
    };
    const afterMark = new Map(
      [...memoryAtStart.keys()].map((name) => [name, medianBetween(name, markedAt, markedAt + windowMs)]),
    );
    const atEnd = new Map(
      [...memoryAtStart.keys()].map((name) => [name, medianBetween(name, finishedAt - windowMs, finishedAt)]),
    );
    const growth = (name) => atEnd.get(name) / afterMark.get(name);
    const grown = [];
    if (stack) {
      const markLabel = `RSS ${(BASELINE_MS / 60_000).toFixed(1)} min MB`;
      say('');
      say(
        `${'process'.padEnd(20)} ${'RSS start MB'.padStart(13)} ${markLabel.padStart(16)} ${'RSS end MB'.padStart(11)} ${'peak MB'.padStart(8)} ${'median: after mark'.padStart(19)} ${'at end'.padStart(7)} ${'end/mark'.padStart(9)}`,
      );
      for (const [name, bytes] of memoryAtStart) {
        const ratio = growth(name);
        const flagged = !(ratio <= 1 + FLAT_TOLERANCE);
        if (flagged) grown.push(name);
        say(
          `${name.padEnd(20)} ${mb(bytes).padStart(13)} ${mb(memoryAtMark.get(name)).padStart(16)} ${mb(memoryAtEnd.get(name)).padStart(11)} ${mb(peak.get(name)).padStart(8)} ${mb(afterMark.get(name)).padStart(19)} ${mb(atEnd.get(name)).padStart(7)} ${(Number.isFinite(ratio) ? ratio.toFixed(3) : '-').padStart(9)}` +
            (flagged ? `  GROWTH > ${FLAT_TOLERANCE * 100} %` : ''),
        );
      }
      const heapLine = (heap) =>
        heap ? `${mb(heap.used).trim()} / ${mb(heap.total).trim()} / ${mb(heap.external).trim()}` : '-';
      say('');
      say(
        `${'Node app'.padEnd(20)} ${'V8 heap used / total / external MB: at the mark'.padEnd(50)} at the end`,
      );
      for (const [name, heap] of heapAtEnd)
        say(`${name.padEnd(20)} ${heapLine(heapAtMark.get(name)).padEnd(50)} ${heapLine(heap)}`);
      say(
        `(end/mark: the median RSS of the ${(windowMs / 1000).toFixed(0)} s after the mark vs the last ${(windowMs / 1000).toFixed(0)} s, sampled every 2 s)`,
      );
      say(
        grown.length === 0
          ? `memory flat: every process ended within ${FLAT_TOLERANCE * 100} % of its RSS at the mark`
          : `memory NOT flat: ${grown.join(', ')} grew more than ${FLAT_TOLERANCE * 100} % after the mark` +
              (snapshotsAtEnd
                ? ' (heap snapshots compared below)'
                : ' (rerun with --heap-snapshots <dir> to compare heaps)'),
      );
      if (snapshotsAtEnd) {
        for (const [name, endFile] of snapshotsAtEnd) {
          const markFile = snapshotsAtMark.get(name);
          if (!markFile) continue;
          say('');
          say(`${name}: heap at the mark → at the end, the kinds that grew most`);
          for (const line of compareHeapSnapshots(markFile, endFile, 15)) say(`  ${line}`);
        }
      }
    }
    if (options.json) {
      const report = {
        durationSeconds: elapsedSeconds,
        throughputPerSecond: total / elapsedSeconds,
        errors,
        chat,
        operations: [...operations.values()].map((op) => ({
          name: op.name,
          count: op.latencies.length,
          p50: op.percentile(0.5),
          p99: op.percentile(0.99),
          errors: op.errors,
        })),
        chatRate: CHAT_RATE,
        apiRate: API_RATE,
        loopsBehindSchedule: late,
        shape: SHAPE,
        chatRateAfterMark: sentAfterMark / secondsAfterMark,
        cpuAfterMark: cpu,
        baselineSeconds: BASELINE_MS / 1000,
        memoryFlat: grown.length === 0,
        memory: [...memoryAtStart.keys()].map((name) => ({
          process: name,
          start: memoryAtStart.get(name),
          atMark: memoryAtMark.get(name),
          medianAfterMark: afterMark.get(name),
          medianAtEnd: atEnd.get(name),
          heapAtMark: heapAtMark.get(name),
          heapAtEnd: heapAtEnd.get(name),
          end: memoryAtEnd.get(name),
          peak: peak.get(name),
          endOverMark: growth(name),
        })),
      };
      require('node:fs').writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    }
    keepWorkDirectory = errors > 0;
    process.exitCode = crashed.length > 0 ? 1 : 0;
  } finally {
    for (const agent of Object.values(agents)) agent.destroy();
    for (const cleanup of cleanups) await cleanup().catch((error) => say(`cleanup: ${error.message}`));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
