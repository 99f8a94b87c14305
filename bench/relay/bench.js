// Relay benchmark: N WebSocket clients in M conversations against a bot that answers every message.
// Prints end-to-end latency (client POST → bot reply on the socket) p50/p99, the gateway's own processing time per
// send (Server-Timing, bot excluded) p50/p99, sustained messages/s, and server memory per idle stream.
// Usage: npm run build && node --expose-gc bench/relay/bench.js [--rate N] [clients=100] [conversations=50] [seconds=10] [idle=10000]
// Without --rate each client sends in a closed loop (the next message once the bot's answer arrived): the rate the
// machine sustains. With --rate N, N messages/s are sent whatever the answers do (an open loop): latency at that rate.
// With REDIS_URL set, the relay uses Redis for its store and bus. BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the
// relay process there (open it in Chrome DevTools).
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
const { join } = require('node:path');
const { WebSocket } = require(
  require.resolve('ws', { paths: [join(__dirname, '../../apps/relay-gateway')] }),
);

const rateFlag = process.argv.findIndex((argument) => argument.startsWith('--rate'));
const rate =
  rateFlag < 0 ? 0 : Number(process.argv[rateFlag].split('=')[1] ?? process.argv.splice(rateFlag + 1, 1)[0]);
if (rateFlag >= 0) process.argv.splice(rateFlag, 1);
if (!(rate >= 0)) throw new Error('--rate takes messages per second');
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

async function main() {
  const server = fork(join(__dirname, 'server.js'), [], {
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
    ],
    env: process.env,
  });
  const ask = (message) =>
    new Promise((resolve) => {
      server.once('message', resolve);
      if (message) server.send(message);
    });
  const { url, secret } = await ask();
  const base = `${url}/v3/directline`;
  console.log(`relay ${url} (${process.env.REDIS_URL ? 'Redis store and bus' : 'in-process store and bus'})`);

  // 1. Active load: `clients` sockets over `conversations` conversations, each client sending in a closed loop.
  const started = [];
  for (let index = 0; index < conversations; index += 1) {
    started.push((await request('POST', `${base}/conversations`, secret, {})).body);
  }
  const pending = new Map();
  const endToEnd = [];
  const processing = [];
  const sockets = [];
  for (let index = 0; index < clients; index += 1) {
    const conversation = started[index % conversations];
    const { body } = await request(
      'GET',
      `${base}/conversations/${conversation.conversationId}`,
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
      `${base}/conversations/${conversation.conversationId}/activities`,
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
    server.send('loop-delay-reset');
    await openLoop({ sendOne, pending, endToEnd, processing });
    const { loopDelay } = await ask('loop-delay');
    console.log(
      `  relay event-loop delay: p50 ${loopDelay.p50.toFixed(1)} ms, p99 ${loopDelay.p99.toFixed(1)} ms, max ${loopDelay.max.toFixed(1)} ms`,
    );
    for (const socket of sockets) socket.terminate();
    await idleStreams(ask, base, secret);
    server.send('stop');
    agent.destroy();
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

  await idleStreams(ask, base, secret);
  server.send('stop');
  agent.destroy();
}

/**
 * Open loop: messages are sent at a fixed rate whatever the answers do (a closed loop slows down with the server and
 * hides queueing), spread over the clients; prints the rate achieved, what was answered, and the latencies.
 */
async function openLoop({ sendOne, pending, endToEnd, processing }) {
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
