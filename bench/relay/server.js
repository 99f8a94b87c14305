// The relay under benchmark, in its own process so its memory can be measured alone. Started by bench.js (fork).
// With REDIS_URL the bot runs in a process of its own (bot.js, replies through the shared store and bus, as
// connector-gateway ingests them); without it (in-process store and bus, nothing to share) this process plays the
// bot too: an HTTP server that answers every message by appending a reply through ConversationLog.
'use strict';
require('reflect-metadata');
const http = require('node:http');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { ConversationLog, StreamService, startRelayGateway } = require('../../apps/relay-gateway/dist');

/** The bot in its own process; resolves with its port and a stop function. */
async function forkBot() {
  const child = fork(join(__dirname, 'bot.js'), [], { env: process.env });
  const { port } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench bot exited with ${code}`)));
  });
  return { port, stop: (done) => (child.once('exit', done), child.send('stop')) };
}

/** The bot in this process, replying through the relay's own ConversationLog. */
async function inProcessBot(getLog) {
  const bot = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const activity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (activity.type !== 'message') return response.writeHead(200).end();
      getLog()
        .appendFromBot(activity.conversation.id, {
          type: 'message',
          from: { id: 'bench-bot' },
          replyToId: activity.id,
          text: `echo: ${activity.text}`,
          channelData: activity.channelData,
        })
        .then(
          () => response.writeHead(200).end(),
          () => response.writeHead(500).end(),
        );
    });
  });
  await new Promise((resolve) => bot.listen(0, '127.0.0.1', resolve));
  return { port: bot.address().port, stop: (done) => bot.close(done) };
}

async function main() {
  let log;
  const bot = process.env.REDIS_URL ? await forkBot() : await inProcessBot(() => log);
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
    ].join('\n'),
  );
  const relay = await startRelayGateway({
    environment: {
      HOST: '127.0.0.1',
      RELAY_GATEWAY_PORT: '0',
      LOG_LEVEL: 'warn',
      PLATFORM_CONFIG: configPath,
      REDIS_URL: process.env.REDIS_URL,
      RELAY_RATE_LIMIT_PER_TOKEN: '0',
      RELAY_RATE_LIMIT_PER_CONVERSATION: '0',
      RELAY_STREAM_KEEPALIVE_MS: '600000',
    },
  });
  log = relay.app.get(ConversationLog);
  const streams = relay.app.get(StreamService);
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
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
      });
    }
    if (message === 'loop-delay-reset') loopDelay.reset();
    if (message === 'stop') void relay.close().then(() => bot.stop(() => process.exit(0)));
  });
  process.send({ url: relay.url, secret: 'bench-directline-secret-01' });
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
