// The conversation log's append with STORE_REPLICA_ACKS off (0: the primary's script, one round trip) and on (1: the
// scripts of a batch of concurrent appends and one WAIT 1, then the confirming scripts: group commit), side by side
// against one primary with one replica started here, in alternating rounds in one process so the ratio holds on a
// noisy machine. Prints each round's append latency (median, p99) per mode, the appends per WAIT, and the on/off ratio
// of the medians, then the median of the rounds' ratios.
// Usage: npm run build && node bench/store/replica-acks.js [appends per round=5000] [in flight=50] [rounds=5]
// BENCH_REDIS_PORT (default 7150) and the next port are the primary's and the replica's (loopback).
'use strict';
const { randomUUID } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { RedisConversationStore } = require('../../libs/conversation-store/dist');
const { RedisNode, REDIS_SERVER_BINARY, waitUntil } = require('../../infra/dist');

const [count = 5_000, inFlight = 50, rounds = 5] = process.argv.slice(2).map(Number);
const primaryPort = Number(process.env.BENCH_REDIS_PORT ?? 7150);
const replicaPort = primaryPort + 1;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** `count` appends, `inFlight` at a time, over the conversations: each append's latency in ms. */
async function run(store, conversations) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      await store.append(conversations[index % conversations.length], {
        type: 'message',
        from: { id: 'bench-user' },
        text: `bench ${index}`,
      });
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { latencies: latencies.sort((a, b) => a - b), elapsed: performance.now() - started };
}

async function main() {
  if (!REDIS_SERVER_BINARY) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const directory = mkdtempSync(join(tmpdir(), 'fieldops-bench-replica-acks-'));
  const common = ['appendonly no', 'save ""'];
  const primary = new RedisNode(primaryPort, join(directory, 'primary'), common);
  const replica = new RedisNode(replicaPort, join(directory, 'replica'), [
    ...common,
    `replicaof 127.0.0.1 ${primaryPort}`,
  ]);
  const stores = [];
  try {
    await primary.start();
    await replica.start();
    await waitUntil(
      async () => (await replica.cli('INFO', 'replication')).includes('master_link_status:up'),
      'the replica in sync',
      30_000,
      100,
    );
    const redisUrl = `redis://127.0.0.1:${primaryPort}`;
    const keyPrefix = `fieldops:bench:${randomUUID()}:`;
    const modes = {
      'WAIT off (STORE_REPLICA_ACKS=0)': new RedisConversationStore({ redisUrl, keyPrefix, replicaAcks: 0 }),
      'WAIT on  (STORE_REPLICA_ACKS=1)': new RedisConversationStore({ redisUrl, keyPrefix, replicaAcks: 1 }),
    };
    stores.push(...Object.values(modes));
    const conversations = [];
    for (let index = 0; index < 50; index += 1) {
      const conversationId = `bench-${randomUUID()}`;
      await stores[0].create({ conversationId, botId: 'bench-bot', createdAt: Date.now() });
      conversations.push(conversationId);
    }
    for (const store of stores) await run(store, conversations.slice(0, 5)); // warm-up (JIT, scripts loaded)
    console.log(
      `${count} appends per round, ${inFlight} in flight, 50 conversations; primary :${primaryPort}, one replica :${replicaPort} (loopback)`,
    );
    const waits = async () =>
      Number(/cmdstat_wait:calls=(\d+)/.exec(await primary.cli('INFO', 'commandstats'))?.[1] ?? 0);
    const ratios = [];
    for (let round = 1; round <= rounds; round += 1) {
      const order = round % 2 ? Object.entries(modes) : Object.entries(modes).reverse();
      const medians = {};
      for (const [mode, store] of order) {
        const waitsBefore = await waits();
        const { latencies, elapsed } = await run(store, conversations);
        const waited = (await waits()) - waitsBefore;
        medians[mode] = quantile(latencies, 0.5);
        console.log(
          `  round ${round} ${mode}: median ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms, ` +
            `${((count / elapsed) * 1000).toFixed(0)} appends/s` +
            (waited > 0 ? `, ${(count / waited).toFixed(1)} appends per WAIT` : ''),
        );
      }
      const [off, on] = Object.keys(modes).map((mode) => medians[mode]);
      ratios.push(on / off);
      console.log(`  round ${round} ratio on/off (median latency): ${(on / off).toFixed(2)}`);
    }
    console.log(`median of the rounds' ratios on/off: ${median(ratios).toFixed(2)}`);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
    await Promise.all([primary.kill(), replica.kill()]);
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
