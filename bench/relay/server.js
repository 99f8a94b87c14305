// One relay under benchmark, in its own process so its memory can be measured alone. Started by bench.js (fork).
// With BENCH_BOT_PORT (bench.js runs the bot in a process of its own when REDIS_URL is set) messages go to that bot;
// without it (in-process store and bus, nothing to share) this process plays the bot too (bot.js's server, replying
// through this relay's own ConversationLog). Relays started together share their token-signing key,
// so a token from one is good on every other, as behind nginx.
'use strict';
require('reflect-metadata');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
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
  let cpuFrom = process.cpuUsage();
  process.on('message', (message) => {
    if (message === 'memory') {
      global.gc?.();
      setTimeout(() => {
        global.gc?.();
        process.send({ memory: process.memoryUsage(), openStreams: streams.openStreams });
      }, 500);
    }
    if (message === 'loop-delay') {
      process.send({
        loopDelay: {
          p50: loopDelay.percentile(50) / 1e6,
          p99: loopDelay.percentile(99) / 1e6,
          max: loopDelay.max / 1e6,
        },
        // CPU time of this process since the last reset (user and system, microseconds): the robust figure on a
        // shared machine, where latencies depend on what else runs.
        cpu: process.cpuUsage(cpuFrom),
      });
    }
    if (message === 'loop-delay-reset') {
      loopDelay.reset();
      cpuFrom = process.cpuUsage();
    }
    if (message === 'stop') void relay.close().then(() => bot.stop(() => process.exit(0)));
  });
  process.send({ url: relay.url, secret: 'bench-directline-secret-01' });
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
