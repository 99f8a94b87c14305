// The conversation log's append on Redis, alone: CPU time of this process and Redis time per append, for the
// two-step path (the store's append script, then the bus's PUBLISH: two round trips) and the one-script path (append
// and publish in one idempotent script: one round trip), in alternating rounds in one process, so the comparison
// holds on a loaded machine. Usage: npm run build && REDIS_URL=redis://127.0.0.1:6379 node bench/relay/append.js
// [appends per round=20000] [in flight=200] [rounds=3]
'use strict';
const { randomUUID } = require('node:crypto');
const { Redis } = require(
  require.resolve('ioredis', { paths: [__dirname + '/../../libs/conversation-store'] }),
);
const { RedisActivityBus } = require('../../libs/bus/dist');
const {
  ConversationLog,
  RedisConversationStore,
  stampBotActivity,
} = require('../../libs/conversation-store/dist');

const [count = 20_000, inFlight = 200, rounds = 3] = process.argv.slice(2).map(Number);
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('set REDIS_URL');
const prefix = `fieldops:bench:${randomUUID()}:`;
const bot = { id: 'bench-bot', name: 'bench-bot' };

/** Redis's own time and calls per command, from INFO commandstats. */
async function commandStats(admin) {
  const stats = {};
  for (const match of (await admin.info('commandstats')).matchAll(/cmdstat_(\w+):calls=(\d+),usec=(\d+)/g)) {
    stats[match[1]] = { calls: Number(match[2]), usec: Number(match[3]) };
  }
  return stats;
}

async function run(log, conversations) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const conversationId = conversations[index % conversations.length];
      const activity = {
        type: 'message',
        from: { id: 'bench-bot' },
        text: `echo: open-${index}`,
        channelData: { key: `open-${index}` },
        replyToId: `${conversationId}|0000001`,
      };
      await log.append(stampBotActivity(conversationId, activity, bot));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

async function main() {
  const admin = new Redis(redisUrl);
  const store = new RedisConversationStore({ redisUrl, keyPrefix: prefix });
  // The same Redis named differently (a trailing slash) is not recognised as the store's: the two-step path.
  const fusedBus = new RedisActivityBus({ redisUrl, channelPrefix: `${prefix}bus:` });
  const separateBus = new RedisActivityBus({
    redisUrl: `${redisUrl.replace(/\/$/, '')}/`,
    channelPrefix: `${prefix}bus:`,
  });
  const quiet = { warn: () => undefined };
  const modes = {
    'two-step': new ConversationLog(store, separateBus, quiet),
    'one script': new ConversationLog(store, fusedBus, quiet),
  };
  const conversations = [];
  for (let index = 0; index < 50; index += 1) {
    const conversationId = `bench-${randomUUID()}`;
    await store.create({ conversationId, botId: bot.id, createdAt: Date.now() });
    conversations.push(conversationId);
  }
  await run(modes['two-step'], conversations.slice(0, 5)); // warm-up (JIT, scripts loaded)
  await run(modes['one script'], conversations.slice(0, 5));
  console.log(
    `${count} appends per round, ${inFlight} in flight, over 50 conversations, Redis at ${redisUrl}`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    for (const [mode, log] of round % 2 ? Object.entries(modes) : Object.entries(modes).reverse()) {
      const statsBefore = await commandStats(admin);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await run(log, conversations);
      const elapsed = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const statsAfter = await commandStats(admin);
      const delta = (name) => ({
        calls: (statsAfter[name]?.calls ?? 0) - (statsBefore[name]?.calls ?? 0),
        usec: (statsAfter[name]?.usec ?? 0) - (statsBefore[name]?.usec ?? 0),
      });
      const script = delta('evalsha');
      const publish = delta('publish');
      // A script's own commands count in commandstats too, and its time includes theirs.
      const twoStep = mode === 'two-step';
      const redisUsec = script.usec + (twoStep ? publish.usec : 0);
      console.log(
        `  round ${round} ${mode.padEnd(10)}: ${Math.round((cpu.user + cpu.system) / count)} µs CPU per append in this process, ` +
          `${(redisUsec / count).toFixed(1)} µs Redis per append, ${twoStep ? 2 : 1} round trips ` +
          `(${(script.calls / count).toFixed(2)} EVALSHA + ${(publish.calls / count).toFixed(2)} PUBLISH${twoStep ? '' : ' inside it'}), ` +
          `${((count / elapsed) * 1000).toFixed(0)} appends/s`,
      );
    }
  }
  const keys = await admin.keys(`${prefix}*`);
  for (let index = 0; index < keys.length; index += 500) await admin.del(...keys.slice(index, index + 500));
  await Promise.all([store.close(), fusedBus.close(), separateBus.close(), admin.quit()]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
