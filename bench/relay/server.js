// One relay under benchmark, in its own process so its memory can be measured alone. Started by bench.js (fork).
// With BENCH_BOT_PORT (bench.js runs the bot in a process of its own when REDIS_URL is set) messages go to that bot;
// without it (in-process store and bus, nothing to share) this process plays the bot too (bot.js's server, replying
// through this relay's own ConversationLog). Relays started together share their token-signing key,
// so a token from one is good on every other, as behind nginx.
'use strict';
require('reflect-metadata');
const { mkdtempSync, readFileSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { Session } = require('node:inspector');
const { join } = require('node:path');
const { constants: perfConstants, monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');
const { ConversationLog, StreamService, startRelayGateway } = require('../../apps/relay-gateway/dist');
const { startBenchBot } = require('./bot');

async function main() {
  let log;
  const bot = process.env.BENCH_BOT_PORT
    ? { port: Number(process.env.BENCH_BOT_PORT), stop: (done) => done() }
    : await startBenchBot(() => log);
  const directory = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const configPath = join(directory, 'platform.yaml');
  writeFileSync(
    configPath,
    [
      'bots:',
      '  - id: bench-bot',
      '    appId: bench-bot',
      `    messagingEndpoint: http://127.0.0.1:${bot.port}/api/messages`,
      '    directLine: { secrets: [bench-directline-secret-01] }',
      'relay:',
      '  tokenSigningKeys: [bench-relay-token-signing-key-0123456789abcdef]',
    ].join('\n'),
  );
  const relay = await startRelayGateway({
    environment: {
      HOST: '127.0.0.1',
      RELAY_GATEWAY_PORT: '0',
      LOG_LEVEL: 'warn',
      PLATFORM_CONFIG: configPath,
      REDIS_URL: process.env.REDIS_URL,
      // Off by default; with --rate-limits (BENCH_RATE_LIMITS) both count, in Redis with REDIS_URL, but never refuse.
      RELAY_RATE_LIMIT_PER_TOKEN: process.env.BENCH_RATE_LIMITS ? '1000000000' : '0',
      RELAY_RATE_LIMIT_PER_CONVERSATION: process.env.BENCH_RATE_LIMITS ? '1000000000' : '0',
      RELAY_STREAM_KEEPALIVE_MS: '600000',
    },
  });
  log = relay.app.get(ConversationLog);
  const streams = relay.app.get(StreamService);
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  // Every garbage-collection pause of this process (its main-thread time), by kind, since the last reset.
  let gcPauses = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push({ kind: entry.detail?.kind, ms: entry.duration });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let cpuFrom = process.cpuUsage();
  let writeCallsFrom = writeSystemCalls();
  const allocationProfile = allocationSampler(process.env.BENCH_HEAP_PROF);
  process.on('message', async (message) => {
    if (message === 'memory') {
      global.gc?.();
      setTimeout(() => {
        global.gc?.();
        process.send({ memory: process.memoryUsage(), openStreams: streams.openStreams });
      }, 500);
    }
    if (message === 'loop-delay') {
      const allocation = await allocationProfile.stop();
      process.send({
        allocation,
        loopDelay: {
          p50: loopDelay.percentile(50) / 1e6,
          p99: loopDelay.percentile(99) / 1e6,
          max: loopDelay.max / 1e6,
        },
        // CPU time of this process since the last reset (user and system, microseconds): the robust figure on a
        // shared machine, where latencies depend on what else runs.
        cpu: process.cpuUsage(cpuFrom),
        gc: summarizeGcPauses(gcPauses),
        writeCalls: writeCallsFrom === undefined ? undefined : writeSystemCalls() - writeCallsFrom,
      });
    }
    if (message === 'loop-delay-reset') {
      loopDelay.reset();
      cpuFrom = process.cpuUsage();
      writeCallsFrom = writeSystemCalls();
      gcPauses = [];
      allocationProfile.start();
    }
    if (message === 'stop') void relay.close().then(() => bot.stop(() => process.exit(0)));
  });
  process.send({ url: relay.url, secret: 'bench-directline-secret-01' });
}

/**
 * With BENCH_HEAP_PROF=<dir>: V8's sampling heap profiler over the measured run, counting the objects the garbage
 * collector has since freed too (every allocation, not only what survives), written there as a `.heapprofile`
 * (Chrome DevTools, Memory tab). `stop()` answers the bytes allocated in all (sampled) and the file.
 */
function allocationSampler(directory) {
  const session = directory ? new Session() : undefined;
  session?.connect();
  const post = (method, parameters) =>
    new Promise((resolve, reject) =>
      session.post(method, parameters, (error, result) => (error ? reject(error) : resolve(result))),
    );
  let sampling = false;
  return {
    start() {
      if (!session || sampling) return;
      sampling = true;
      void post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    },
    async stop() {
      if (!session || !sampling) return undefined;
      sampling = false;
      const { profile } = await post('HeapProfiler.stopSampling', {});
      let bytes = 0;
      const total = (node) => {
        bytes += node.selfSize;
        for (const child of node.children) total(child);
      };
      total(profile.head);
      const file = join(directory, `relay-${process.pid}-${Date.now()}.heapprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return { bytes, file };
    },
  };
}

/** Write system calls (write, writev, sendmsg…) this process made so far (Linux `/proc/self/io`), or undefined. */
function writeSystemCalls() {
  try {
    return Number(/^syscw: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
  } catch {
    return undefined;
  }
}

const GC_KINDS = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** Count, total, p99 and max of the pauses, overall and by kind (milliseconds). */
function summarizeGcPauses(pauses) {
  const summarize = (list) => {
    const sorted = list.map((pause) => pause.ms).sort((a, b) => a - b);
    return {
      count: sorted.length,
      totalMs: sorted.reduce((sum, ms) => sum + ms, 0),
      p99: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0,
      max: sorted.at(-1) ?? 0,
    };
  };
  const byKind = {};
  for (const pause of pauses) (byKind[GC_KINDS[pause.kind] ?? String(pause.kind)] ??= []).push(pause);
  return {
    all: summarize(pauses),
    byKind: Object.fromEntries(Object.entries(byKind).map(([kind, list]) => [kind, summarize(list)])),
  };
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
