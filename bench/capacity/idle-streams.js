#!/usr/bin/env node
// Capacity input: memory per idle WebSocket stream in one relay-gateway process (Redis mode, one conversation per
// stream, the production keep-alive of 15 s), measured between half and all of the streams so start-up memory
// cancels out: RSS (/proc), V8 heap (the relay's /metrics), the kernel's TCP memory (/proc/net/sockstat, both
// ends of each loopback connection), Redis used_memory per stream (its channel subscription), and the relay's CPU
// while the streams sit idle (keep-alive frames).
//   npm run build && node bench/capacity/idle-streams.js [--streams 100000] [--idle-seconds 45]
// One process can open at most `ulimit -n` sockets; the bench says so and measures as many as fit when the limit is
// lower than --streams (raise it, e.g. `ulimit -n 200000` as root or LimitNOFILE in systemd, to run 100,000).
// See bench/capacity/README.md.
'use strict';

const { fork } = require('node:child_process');
const path = require('node:path');
const { writeFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { startPlatform } = require('./platform');
const { cpuMilliseconds, openFilesLimit, residentSetBytes, tcpSocketMemory } = require('./process-stats');
const { infoSection } = require('./redis-info');
const { memoryAfterCollection } = require('./inspector');

const { values: options } = parseArgs({
  options: {
    streams: { type: 'string', default: '100000' },
    'idle-seconds': { type: 'string', default: '45' },
    'per-holder': { type: 'string', default: '15000' },
    'redis-port': { type: 'string' },
    'app-port': { type: 'string' },
    json: { type: 'string' },
  },
});
const WANTED = Number(options.streams);
const IDLE_SECONDS = Number(options['idle-seconds']);
const PER_HOLDER = Number(options['per-holder']);
/** File descriptors the relay needs besides its streams (Redis, logs, keep-alive HTTP from the holders, Node). */
const RELAY_SPARE_FDS = 600;
const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

/** The relay's open streams, from its Prometheus endpoint. */
async function openStreamsOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^relay_open_streams(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]);
}

function holder() {
  const child = fork(path.join(__dirname, 'stream-holder.js'));
  const ask = (message) =>
    new Promise((resolve, reject) => {
      child.once('message', (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
      child.send(message);
    });
  return { child, ask };
}

async function main() {
  const limit = openFilesLimit();
  const streams = Math.min(WANTED, limit - RELAY_SPARE_FDS);
  if (streams < WANTED) {
    say(
      `ulimit -n is ${limit}: the relay process (it inherits this limit) can hold at most ${streams} streams here, not ${WANTED}. ` +
        'Measuring that many; the per-stream figures are slopes, so they scale linearly (raise the limit to measure 100,000).',
    );
  }
  const platform = await startPlatform({
    redisPort: options['redis-port'] && Number(options['redis-port']),
    appPort: options['app-port'] && Number(options['app-port']),
    relayEnvironment: { RELAY_RATE_LIMIT_PER_TOKEN: '100000000' },
    inspectRelays: true,
  });
  const holders = Array.from({ length: Math.ceil(streams / PER_HOLDER) }, holder);
  try {
    const [relay] = platform.relays;
    const redis = platform.redis.client;
    say(
      `relay-gateway ${relay.url} (Redis mode, RELAY_STREAM_KEEPALIVE_MS 15000), ${holders.length} client processes, one conversation per stream`,
    );
    const share = (total, index) =>
      Math.floor(total / holders.length) + (index < total % holders.length ? 1 : 0);
    await Promise.all(
      holders.map((each, index) =>
        each.ask({ create: { domain: relay.domain, secret: platform.secret, count: share(streams, index) } }),
      ),
    );
    say(`${streams} conversations started`);

    const sample = async () => {
      await sleep(3000);
      // After a full collection in the relay (through its inspector), so the heap holds only what is live.
      const usage = await memoryAfterCollection(relay.inspectorPort);
      const [openStreams, memory] = await Promise.all([
        openStreamsOf(relay.url),
        infoSection(redis, 'memory'),
      ]);
      return {
        rss: residentSetBytes(relay.pid),
        heapUsed: usage.heapUsed,
        external: usage.external + usage.arrayBuffers,
        openStreams,
        tcp: tcpSocketMemory(),
        redis: Number(memory.used_memory),
      };
    };
    const open = (count) =>
      Promise.all(
        holders.map((each, index) =>
          each.ask({
            open: {
              count: share(count, index),
              localAddresses: [1, 2, 3, 4].map((n) => `127.0.${10 + index}.${n}`),
            },
          }),
        ),
      );
    const none = await sample();
    const half = Math.floor(streams / 2);
    await open(half);
    const atHalf = await sample();
    await open(streams - half);
    const atAll = await sample();

    const cpuBefore = cpuMilliseconds(relay.pid);
    await sleep(IDLE_SECONDS * 1000);
    const idleCpuMs = cpuMilliseconds(relay.pid) - cpuBefore;
    const still = (await Promise.all(holders.map((each) => each.ask('count')))).reduce(
      (sum, answer) => sum + answer.open,
      0,
    );

    const added = atAll.openStreams - atHalf.openStreams;
    const per = (key) => (atAll[key] - atHalf[key]) / added;
    say('');
    say(
      `relay process: ${none.openStreams} → ${atHalf.openStreams} → ${atAll.openStreams} open streams; ` +
        `RSS ${mb(none.rss)} → ${mb(atHalf.rss)} → ${mb(atAll.rss)}; heap used ${mb(none.heapUsed)} → ${mb(atHalf.heapUsed)} → ${mb(atAll.heapUsed)}`,
    );
    say(`per idle stream (slope over the second ${added} streams):`);
    say(
      `  relay RSS ${(per('rss') / 1024).toFixed(1)} KB, relay V8 heap (after a full GC) ${(per('heapUsed') / 1024).toFixed(1)} KB, relay external ${(per('external') / 1024).toFixed(2)} KB`,
    );
    say(
      `  kernel TCP memory ${((atAll.tcp.bytes - atHalf.tcp.bytes) / added / 1024).toFixed(2)} KB (both ends of the loopback connection; sockstat TCP mem), ` +
        `${((atAll.tcp.allocated - atHalf.tcp.allocated) / added).toFixed(2)} TCP sockets`,
    );
    say(`  Redis used_memory ${per('redis').toFixed(0)} bytes (the conversation's bus channel subscription)`);
    say(
      `  for ${streams} streams in one process: RSS ${mb(atAll.rss)}; extrapolated to 100,000: ${mb(atHalf.rss + per('rss') * (100_000 - atHalf.openStreams))}`,
    );
    say(
      `idle for ${IDLE_SECONDS} s with ${atAll.openStreams} streams (keep-alive every 15 s): relay CPU ${(idleCpuMs / IDLE_SECONDS / 10).toFixed(1)} % of a core, ` +
        `${(((idleCpuMs / IDLE_SECONDS) * 60) / atAll.openStreams).toFixed(3)} CPU-ms per stream per minute; ${still} streams still open`,
    );
    if (options.json) {
      writeFileSync(
        options.json,
        `${JSON.stringify(
          {
            bench: 'idle-streams',
            command: `node bench/capacity/idle-streams.js ${process.argv.slice(2).join(' ')}`.trim(),
            at: new Date().toISOString(),
            wanted: WANTED,
            streams: atAll.openStreams,
            stillOpen: still,
            relayRssBytes: { none: none.rss, half: atHalf.rss, all: atAll.rss },
            relayHeapUsedBytes: { none: none.heapUsed, half: atHalf.heapUsed, all: atAll.heapUsed },
            perStream: {
              rssBytes: per('rss'),
              heapBytes: per('heapUsed'),
              externalBytes: per('external'),
              redisBytes: per('redis'),
              kernelTcpBytes: (atAll.tcp.bytes - atHalf.tcp.bytes) / added,
            },
            idleCpuMsPerStreamPerMinute: ((idleCpuMs / IDLE_SECONDS) * 60) / atAll.openStreams,
          },
          null,
          2,
        )}\n`,
      );
    }
  } finally {
    for (const each of holders) each.child.send('stop');
    await platform.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
