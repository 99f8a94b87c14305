// Relay benchmark: N WebSocket clients in M conversations against a bot that answers every message.
// Prints end-to-end latency (client POST → bot reply on the socket) p50/p99, the gateway's own processing time per
// send (Server-Timing, bot excluded) p50/p99, sustained messages/s, and server memory per idle stream.
// Usage: npm run build && node --expose-gc bench/relay/bench.js [--rate N] [--relays R] [--rate-limits] [--relay-node-options=F] [clients=100] [conversations=50] [seconds=10] [idle=10000]
// Without --rate each client sends in a closed loop (the next message once the bot's answer arrived): the rate the
// machine sustains. With --rate N, N messages/s are sent whatever the answers do (an open loop): latency at that rate.
// With REDIS_URL set, the relay uses Redis for its store and bus, the bot runs in a process of its own, and --relays R
// starts R relay instances on that Redis (each conversation's clients spread over them). BENCH_CPU_PROF=<dir> writes
// a V8 CPU profile of each relay process there (open it in Chrome DevTools); BENCH_HEAP_PROF=<dir> an allocation
// profile of the measured run, and prints the bytes allocated per message. The open loop prints each relay's GC
// pauses and write system calls per message too. --relay-node-options=<flags> sets the relays' NODE_OPTIONS.
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
const { join } = require('node:path');
const { WebSocket } = require(
  require.resolve('ws', { paths: [join(__dirname, '../../apps/relay-gateway')] }),
);

/** Takes `--name N` or `--name=N` out of argv. */
function numberFlag(name, fallback) {
  const at = process.argv.findIndex((argument) => argument === name || argument.startsWith(`${name}=`));
  if (at < 0) return fallback;
  const value = Number(process.argv[at].split('=')[1] ?? process.argv.splice(at + 1, 1)[0]);
  process.argv.splice(at, 1);
  if (!(value >= 0)) throw new Error(`${name} takes a number`);
  return value;
}
const rate = numberFlag('--rate', 0);
const relayCount = Math.max(1, numberFlag('--relays', 1));
/** Takes a `--name` switch out of argv. */
function switchFlag(name) {
  const at = process.argv.indexOf(name);
  if (at >= 0) process.argv.splice(at, 1);
  return at >= 0;
}
/** Takes `--name VALUE` or `--name=VALUE` out of argv. */
function stringFlag(name, fallback) {
  const at = process.argv.findIndex((argument) => argument === name || argument.startsWith(`${name}=`));
  if (at < 0) return fallback;
  const [, inline] = process.argv[at].split(/=(.*)/s);
  const value = inline ?? process.argv.splice(at + 1, 1)[0];
  process.argv.splice(at, 1);
  return value;
}
/** NODE_OPTIONS of the relay processes (e.g. `--max-semi-space-size=32`), replacing the default. */
const relayNodeOptions = stringFlag('--relay-node-options', undefined);
/** The relay's rate limits (per token, per conversation) count every send, with limits too high to refuse any. */
const rateLimits = switchFlag('--rate-limits');
const WARM_UP_SECONDS = 3;
const [clients = 100, conversations = 50, seconds = 10, idle = 10_000] = process.argv.slice(2).map(Number);
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

function request(method, url, token, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function openSocket(url, onFrame) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('message', (data) => {
      const text = data.toString('utf8');
      if (text) onFrame(JSON.parse(text));
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A forked bench process (a relay, or the bot) and a way to ask it something. */
function child(script, env) {
  const process_ = fork(join(__dirname, script), [], {
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_CPU_PROF && script === 'server.js'
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
        : []),
    ],
    env,
  });
  const ask = (message) =>
    new Promise((resolve) => {
      process_.once('message', resolve);
      if (message) process_.send(message);
    });
  return { process: process_, ask, send: (message) => process_.send(message) };
}

async function main() {
  if (relayCount > 1 && !process.env.REDIS_URL) throw new Error('--relays above 1 needs REDIS_URL');
  let bot;
  const relayEnv = {
    ...process.env,
    ...(rateLimits ? { BENCH_RATE_LIMITS: '1' } : {}),
    ...(relayNodeOptions !== undefined ? { NODE_OPTIONS: relayNodeOptions } : {}),
  };
  if (process.env.REDIS_URL) {
    bot = child('bot.js', process.env);
    relayEnv.BENCH_BOT_PORT = String((await bot.ask()).port);
  }
  const relays = [];
  for (let index = 0; index < relayCount; index += 1) {
    const relay = child('server.js', relayEnv);
    const { url, secret } = await relay.ask();
    relays.push({ ...relay, url, secret, base: `${url}/v3/directline` });
  }
  const { secret } = relays[0];
  const stopAll = () => {
    for (const relay of relays) relay.send('stop');
    bot?.send('stop');
    agent.destroy();
  };
  console.log(
    `${relayCount} relay${relayCount > 1 ? 's' : ''} ${relays.map((relay) => relay.url).join(', ')} (${process.env.REDIS_URL ? 'Redis store and bus, the bot in its own process' : 'in-process store and bus, the bot in the relay process'}; rate limits ${rateLimits ? 'counting' : 'off'}; relay NODE_OPTIONS ${JSON.stringify(relayEnv.NODE_OPTIONS ?? '')})`,
  );

  // 1. Active load: `clients` sockets over `conversations` conversations. The clients of a conversation stream from
  // different relays (round robin), and each client sends to its own relay, as nginx would spread them.
  const started = [];
  for (let index = 0; index < conversations; index += 1) {
    const relay = relays[index % relayCount];
    started.push((await request('POST', `${relay.base}/conversations`, secret, {})).body);
  }
  const relayOfClient = (index) => relays[(index + Math.floor(index / conversations)) % relayCount];
  const pending = new Map();
  const endToEnd = [];
  const processing = [];
  const sockets = [];
  for (let index = 0; index < clients; index += 1) {
    const conversation = started[index % conversations];
    const { body } = await request(
      'GET',
      `${relayOfClient(index).base}/conversations/${conversation.conversationId}`,
      conversation.token,
    );
    sockets.push(
      await openSocket(body.streamUrl, (frame) => {
        for (const activity of frame.activities) {
          const key = activity.channelData?.key;
          const waiter = activity.from.id === 'bench-bot' && key ? pending.get(key) : undefined;
          if (waiter) {
            pending.delete(key);
            waiter();
          }
        }
      }),
    );
  }
  const sendOne = async (index, key) => {
    const conversation = started[index % conversations];
    const response = await request(
      'POST',
      `${relayOfClient(index).base}/conversations/${conversation.conversationId}/activities`,
      conversation.token,
      { type: 'message', from: { id: `user-${index}` }, text: key, channelData: { key } },
    );
    if (response.status !== 200) {
      throw new Error(`send answered ${response.status} ${JSON.stringify(response.body?.error ?? '')}`);
    }
    const timing = /dur=([\d.]+)/.exec(response.headers['server-timing'] ?? '');
    if (timing) processing.push(Number(timing[1]));
  };
  if (rate > 0) {
    // The relays' event-loop delay and CPU time are counted from the end of the warm-up.
    const afterWarmUp = () => {
      for (const relay of relays) relay.send('loop-delay-reset');
    };
    const { sent } = await openLoop({ sendOne, pending, endToEnd, processing, afterWarmUp });
    for (const [index, relay] of relays.entries()) {
      const { loopDelay, cpu, gc, allocation, writeCalls } = await relay.ask('loop-delay');
      const name = `relay${relayCount > 1 ? ` ${index + 1}` : ''}`;
      console.log(
        `  ${name} event-loop delay: p50 ${loopDelay.p50.toFixed(1)} ms, p99 ${loopDelay.p99.toFixed(1)} ms, max ${loopDelay.max.toFixed(1)} ms`,
      );
      // Per message sent (its echo and the bot's reply streamed to every socket included), over the relays.
      const perMessage = (micros) => ((micros / sent) * relayCount).toFixed(0);
      const gcLine = (figures) =>
        `${figures.count} pauses, ${figures.totalMs.toFixed(0)} ms in all (${(figures.totalMs / 10 / seconds).toFixed(1)}% of the time), p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms`;
      console.log(`  ${name} GC: ${gcLine(gc.all)}`);
      for (const [kind, figures] of Object.entries(gc.byKind)) console.log(`    ${kind}: ${gcLine(figures)}`);
      if (allocation) {
        console.log(
          `  ${name} allocated: ${(((allocation.bytes / sent) * relayCount) / 1024).toFixed(1)} KB per message (sampled; ${allocation.file})`,
        );
      }
      if (writeCalls !== undefined) {
        console.log(
          `  ${name} write system calls: ${((writeCalls / sent) * relayCount).toFixed(2)} per message`,
        );
      }
      console.log(
        `  ${name} CPU: ${perMessage(cpu.user + cpu.system)} µs per message (user ${perMessage(cpu.user)}, system ${perMessage(cpu.system)}), ${((cpu.user + cpu.system) / 1e4 / seconds).toFixed(0)}% of a core`,
      );
    }
    for (const socket of sockets) socket.terminate();
    await idleStreams(relays[0].ask, relays[0].base, secret);
    stopAll();
    return;
  }
  let sent = 0;
  let running = true;
  const loop = async (index) => {
    while (running) {
      const key = `${index}-${sent++}`;
      const begin = performance.now();
      const replied = new Promise((resolve) => pending.set(key, resolve));
      await sendOne(index, key);
      await replied;
      endToEnd.push(performance.now() - begin);
    }
  };
  const loadStart = performance.now();
  const loops = Array.from({ length: clients }, (_, index) => loop(index));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  await Promise.all(loops);
  const elapsed = (performance.now() - loadStart) / 1000;
  for (const socket of sockets) socket.terminate();
  console.log(`active: ${clients} WebSocket clients in ${conversations} conversations, ${seconds} s`);
  console.log(`  sustained: ${(endToEnd.length / elapsed).toFixed(0)} messages/s (each answered by the bot)`);
  console.log(
    `  end-to-end (POST → reply on the socket): p50 ${percentile(endToEnd, 50).toFixed(2)} ms, p99 ${percentile(endToEnd, 99).toFixed(2)} ms`,
  );
  console.log(
    `  gateway processing per send (bot excluded): p50 ${percentile(processing, 50).toFixed(3)} ms, p99 ${percentile(processing, 99).toFixed(3)} ms`,
  );

  await idleStreams(relays[0].ask, relays[0].base, secret);
  stopAll();
}

/**
 * Open loop: messages are sent at a fixed rate whatever the answers do (a closed loop slows down with the server and
 * hides queueing), spread over the clients; prints the rate achieved, what was answered, and the latencies.
 */
async function openLoop({ sendOne, pending, endToEnd, processing, afterWarmUp }) {
  const run = async (label, runSeconds) => {
    let sent = 0;
    let failed = 0;
    let answered = 0;
    const failures = new Map();
    const loadStart = performance.now();
    const until = loadStart + runSeconds * 1000;
    while (performance.now() < until) {
      const due = Math.floor(((performance.now() - loadStart) / 1000) * rate);
      for (; sent < due; sent += 1) {
        const key = `${label}-${sent}`;
        const begin = performance.now();
        pending.set(key, () => {
          answered += 1;
          endToEnd.push(performance.now() - begin);
        });
        sendOne(sent % clients, key).catch((error) => {
          failed += 1;
          failures.set(error.message, (failures.get(error.message) ?? 0) + 1);
          pending.delete(key);
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const sendingSeconds = (performance.now() - loadStart) / 1000;
    const drainUntil = performance.now() + 5_000;
    while (pending.size > 0 && performance.now() < drainUntil) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { sent, failed, answered, sendingSeconds, failures };
  };
  // Warm-up at the same rate (JIT, keep-alive sockets to the bot, Redis scripts), not counted.
  await run('warm-up', WARM_UP_SECONDS);
  endToEnd.length = 0;
  processing.length = 0;
  afterWarmUp();
  const { sent, failed, answered, sendingSeconds, failures } = await run('open', seconds);
  console.log(
    `open loop: ${rate} messages/s offered for ${seconds} s (after ${WARM_UP_SECONDS} s of warm-up) over ${clients} WebSocket clients in ${conversations} conversations`,
  );
  console.log(
    `  sent ${sent} (${(sent / sendingSeconds).toFixed(0)} messages/s), failed ${failed}, answered on the socket ${answered}, unanswered after 5 s ${pending.size}`,
  );
  for (const [reason, count] of failures) console.log(`  failed: ${count} × ${reason}`);
  console.log(
    `  end-to-end (POST → reply on the socket): p50 ${percentile(endToEnd, 50).toFixed(2)} ms, p99 ${percentile(endToEnd, 99).toFixed(2)} ms`,
  );
  console.log(
    `  gateway processing per send (bot excluded): p50 ${percentile(processing, 50).toFixed(3)} ms, p99 ${percentile(processing, 99).toFixed(3)} ms`,
  );
  return { sent };
}

/** Idle streams: memory of the relay process per open socket. */
async function idleStreams(ask, base, secret) {
  if (idle > 0) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = (await ask('memory')).memory;
    const idleSockets = [];
    const conversation = (await request('POST', `${base}/conversations`, secret, {})).body;
    for (let index = 0; index < idle; index += 1) {
      const { body } = await request(
        'GET',
        `${base}/conversations/${conversation.conversationId}?watermark=`,
        conversation.token,
      );
      idleSockets.push(await openSocket(body.streamUrl, () => undefined));
    }
    const after = await ask('memory');
    const perStream = (key) => ((after.memory[key] - before[key]) / idle / 1024).toFixed(1);
    console.log(
      `idle: ${after.openStreams} open streams: ${perStream('rss')} KB RSS, ${perStream('heapUsed')} KB heap per stream`,
    );
    for (const socket of idleSockets) socket.terminate();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
