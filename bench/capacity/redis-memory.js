#!/usr/bin/env node
// Capacity inputs for Redis memory: used_memory (INFO memory) per conversation and per retained activity, through
// the real path (conversations started at relay-gateway, messages answered by the bot through connector-gateway),
// with the keys behind them (MEMORY USAGE by key kind) and their time to live.
//   npm run build && node bench/capacity/redis-memory.js [--conversations 2000] [--messages 6]
// See bench/capacity/README.md.
'use strict';

const { writeFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { startPlatform } = require('./platform');
const { infoSection } = require('./redis-info');
const { inParallel, request, startConversation } = require('./direct-line-client');

const { values: options } = parseArgs({
  options: {
    conversations: { type: 'string', default: '2000' },
    messages: { type: 'string', default: '6' },
    'redis-port': { type: 'string' },
    'app-port': { type: 'string' },
    json: { type: 'string' },
  },
});
const CONVERSATIONS = Number(options.conversations);
const MESSAGES = Math.max(2, Number(options.messages));
const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** used_memory once it settles (Redis frees client buffers and lazily freed objects shortly after a burst). */
async function usedMemory(redis) {
  await sleep(1500);
  return Number((await infoSection(redis, 'memory')).used_memory);
}

/** Every key's kind (ids replaced by `*`) → count, sampled MEMORY USAGE, and a sample key. */
async function keyKinds(redis) {
  const kinds = new Map();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const kind = key
        .split(':')
        .map((part) => (/[\w-]{16,}/.test(part) ? '*' : part))
        .join(':');
      const entry = kinds.get(kind) ?? { count: 0, sample: [] };
      entry.count += 1;
      if (entry.sample.length < 50) entry.sample.push(key);
      kinds.set(kind, entry);
    }
  } while (cursor !== '0');
  for (const entry of kinds.values()) {
    const sizes = await Promise.all(entry.sample.map((key) => redis.memory('USAGE', key, 'SAMPLES', 0)));
    entry.bytes = sizes.reduce((sum, size) => sum + Number(size ?? 0), 0) / sizes.length;
    entry.ttl = await redis.ttl(entry.sample[0]);
    entry.type = await redis.type(entry.sample[0]);
    if (entry.type === 'list') {
      const lengths = await Promise.all(entry.sample.map((key) => redis.llen(key)));
      entry.length = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
      const items = await redis.lrange(entry.sample[0], 0, -1);
      entry.itemBytes = items.reduce((sum, item) => sum + Buffer.byteLength(item), 0) / (items.length || 1);
    }
  }
  return kinds;
}

async function main() {
  const platform = await startPlatform({
    redisPort: options['redis-port'] && Number(options['redis-port']),
    appPort: options['app-port'] && Number(options['app-port']),
    // One secret starts every conversation: its 600-a-minute limit would refuse most of them.
    relayEnvironment: { RELAY_RATE_LIMIT_PER_TOKEN: '100000000' },
  });
  try {
    const redis = platform.redis.client;
    const [relay] = platform.relays;
    say(
      `platform: redis-server ${platform.redis.url}, connector-gateway and relay-gateway in their own processes, ` +
        `CONVERSATION_RETENTION_SECONDS default (86400)`,
    );
    const empty = await usedMemory(redis);

    const conversations = [];
    await inParallel(CONVERSATIONS, 32, async (index) => {
      conversations[index] = await startConversation(relay.domain, platform.secret);
    });
    const started = await usedMemory(redis);

    let failed = 0;
    const sendRound = (round) =>
      inParallel(CONVERSATIONS, 64, async (index) => {
        const conversation = conversations[index];
        const answer = await request(
          'POST',
          `${relay.domain}/conversations/${conversation.conversationId}/activities`,
          conversation.token,
          {
            type: 'message',
            from: { id: `user-${index}` },
            text: `inspection of device PUMP-${String(index).padStart(3, '0')}: round ${round}, pressure ok`,
          },
        );
        if (answer.status !== 200) failed += 1;
      });
    // The first message of each conversation also creates its per-conversation rate-limit counter (60 s):
    // per-activity memory is measured over the later rounds.
    await sendRound(0);
    const firstRound = await usedMemory(redis);
    for (let round = 1; round < MESSAGES; round += 1) await sendRound(round);
    const allRounds = await usedMemory(redis);
    const kinds = await keyKinds(redis);
    // Keys that live seconds (rate-limit counters, the append script's idempotency markers) leave with their TTL:
    // what stays is the conversations' hashes and logs, for CONVERSATION_RETENTION_SECONDS.
    const transientTtl = Math.max(
      0,
      ...[...kinds.values()].filter((entry) => entry.ttl > 0 && entry.ttl < 3600).map((entry) => entry.ttl),
    );
    await sleep((transientTtl + 2) * 1000);
    const settled = await usedMemory(redis);
    const perRetainedActivity = (settled - started) / (CONVERSATIONS * MESSAGES * 2);
    const transientPerMessage = (allRounds - settled) / (CONVERSATIONS * MESSAGES);

    // Activities per message: the user's message and the bot's reply (the bot answers inside the delivery).
    const logKind = [...kinds.values()].find((entry) => entry.type === 'list');
    const activitiesPerRound = 2;
    const perActivity = (allRounds - firstRound) / (CONVERSATIONS * (MESSAGES - 1) * activitiesPerRound);
    say('');
    say(
      `${CONVERSATIONS} conversations started, ${MESSAGES} messages each answered by the bot (${failed} sends failed)`,
    );
    say(
      `  used_memory: empty ${(empty / 1048576).toFixed(1)} MB, started ${(started / 1048576).toFixed(1)} MB, ` +
        `after 1 message ${(firstRound / 1048576).toFixed(1)} MB, after ${MESSAGES} ${(allRounds / 1048576).toFixed(1)} MB`,
    );
    say(
      `  per conversation (started, no message yet): ${((started - empty) / CONVERSATIONS).toFixed(0)} bytes`,
    );
    say(
      `  per conversation after its first message (its log, rate-limit counters): ${((firstRound - empty) / CONVERSATIONS).toFixed(0)} bytes`,
    );
    say(
      `  per retained activity (messages 2…${MESSAGES}, ${activitiesPerRound} activities each): ${perActivity.toFixed(0)} bytes` +
        (logKind ? ` (a stored activity is ${logKind.itemBytes.toFixed(0)} bytes of JSON)` : ''),
    );
    say(
      `  after the short-lived keys expired (${transientTtl + 2} s later): ${(settled / 1048576).toFixed(1)} MB; ` +
        `per retained activity (its conversation's log, spread over its activities): ${perRetainedActivity.toFixed(0)} bytes; ` +
        `short-lived keys per message while they live (≤ ${transientTtl} s): ${transientPerMessage.toFixed(0)} bytes`,
    );
    say('');
    say('keys (MEMORY USAGE averaged over up to 50 keys of each kind; TTL of one):');
    for (const [kind, entry] of [...kinds].sort((a, b) => b[1].count - a[1].count)) {
      say(
        `  ${kind.padEnd(58)} ${entry.type.padEnd(6)} ${String(entry.count).padStart(7)} keys ${entry.bytes.toFixed(0).padStart(7)} bytes each, TTL ${entry.ttl} s` +
          (entry.length !== undefined ? `, ${entry.length.toFixed(1)} entries` : ''),
      );
    }
    if (options.json) {
      writeFileSync(
        options.json,
        `${JSON.stringify(
          {
            bench: 'redis-memory',
            command: `node bench/capacity/redis-memory.js ${process.argv.slice(2).join(' ')}`.trim(),
            at: new Date().toISOString(),
            conversations: CONVERSATIONS,
            messages: MESSAGES,
            failed,
            usedMemory: { empty, started, firstRound, allRounds },
            perStartedConversationBytes: (started - empty) / CONVERSATIONS,
            perConversationAfterFirstMessageBytes: (firstRound - empty) / CONVERSATIONS,
            perActivityBytes: perActivity,
            usedMemorySettled: settled,
            perRetainedActivityBytes: perRetainedActivity,
            transientBytesPerMessage: transientPerMessage,
            transientTtlSeconds: transientTtl,
            activityJsonBytes: logKind?.itemBytes,
            keys: [...kinds].map(([kind, entry]) => ({
              kind,
              type: entry.type,
              count: entry.count,
              bytes: entry.bytes,
              ttlSeconds: entry.ttl,
            })),
          },
          null,
          2,
        )}\n`,
      );
    }
  } finally {
    await platform.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
