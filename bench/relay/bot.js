// The benchmark's bot: an HTTP server that answers every message with a reply appended through a ConversationLog
// (the conversation's log, then the bus), the path every reply takes. server.js runs it inside the relay process
// (in-process store and bus); run as a process of its own (bench.js with REDIS_URL) it replies through the shared
// Redis store and bus, as connector-gateway does with a real bot's reply, and the relay does only its own work.
'use strict';
const http = require('node:http');
const { createActivityBus } = require('../../libs/bus/dist');
const { ConversationLog, createConversationStore } = require('../../libs/conversation-store/dist');

/** The bot as server.js's platform configuration names it (`bench-bot`, no name: the id). */
const BENCH_BOT = { id: 'bench-bot', name: 'bench-bot' };

/** Listens on a free loopback port; `log()` is the ConversationLog replies go through. */
async function startBenchBot(log) {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const activity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (activity.type !== 'message') return response.writeHead(200).end();
      log()
        .appendFromBot(
          activity.conversation.id,
          {
            type: 'message',
            from: { id: 'bench-bot' },
            replyToId: activity.id,
            text: `echo: ${activity.text}`,
            channelData: activity.channelData,
          },
          BENCH_BOT,
        )
        .then(
          () => response.writeHead(200).end(),
          () => response.writeHead(500).end(),
        );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, stop: (done) => server.close(done) };
}

async function main() {
  const redisUrl = process.env.REDIS_URL;
  // CONVERSATION_RETENTION_SECONDS as the gateways read it (bench/soak's relay shape sets it, so the bot's replies
  // expire with the relay's writes and Redis reaches a steady state); unset: the store's default.
  const retention = process.env.CONVERSATION_RETENTION_SECONDS;
  const store = createConversationStore({
    redisUrl,
    retentionSeconds: retention ? Number(retention) : undefined,
  });
  const bus = createActivityBus({ redisUrl });
  const log = new ConversationLog(store, bus, { warn: (...details) => console.warn(...details) });
  const bot = await startBenchBot(() => log);
  process.on('message', (message) => {
    if (message !== 'stop') return;
    bot.stop(() => undefined);
    void Promise.all([store.close(), bus.close()]).finally(() => process.exit(0));
  });
  process.send({ port: bot.port });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}

module.exports = { startBenchBot };
