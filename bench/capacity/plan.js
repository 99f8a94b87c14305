#!/usr/bin/env node
// The capacity plan's derivation (docs/operate/capacity.md), computed from what the capacity benches measured (their --json
// files) and the planning assumptions (the flags below). Prints Markdown: the measured inputs, then the sizing.
//   node bench/capacity/messages.js --rate 1000 --json /tmp/messages.json
//   node bench/capacity/idle-streams.js --json /tmp/streams.json
//   node bench/capacity/redis-memory.js --json /tmp/redis.json
//   node bench/capacity/plan.js --messages /tmp/messages.json --streams /tmp/streams.json --redis /tmp/redis.json
'use strict';

const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');

const { values: options } = parseArgs({
  options: {
    messages: { type: 'string' },
    streams: { type: 'string' },
    redis: { type: 'string' },
    // The target.
    'target-rate': { type: 'string', default: '20000' },
    'target-streams': { type: 'string', default: '100000' },
    'target-conversations': { type: 'string', default: '1000000' },
    // Assumptions.
    'messages-per-conversation': { type: 'string', default: '20' },
    'retention-seconds': { type: 'string', default: '86400' },
    'cpu-ceiling': { type: 'string', default: '0.6' },
    'redis-cpu-ceiling': { type: 'string', default: '0.5' },
    'redis-shard-gb': { type: 'string', default: '24' },
    'spare-instances': { type: 'string', default: '1' },
  },
});
for (const name of ['messages', 'streams', 'redis']) {
  if (!options[name]) throw new Error(`--${name} <file written by the bench's --json> is required`);
}
/** A bench's figures; its command without the --json file (where the figures went is not how they were made). */
const figures = (file) => {
  const read = JSON.parse(readFileSync(file, 'utf8'));
  return { ...read, command: read.command.replace(/\s--json(?:=|\s+)\S+/, '') };
};
const messages = figures(options.messages);
const streams = figures(options.streams);
const redis = figures(options.redis);
const number = (name) => Number(options[name]);
const RATE = number('target-rate');
const STREAMS = number('target-streams');
const CONVERSATIONS = number('target-conversations');
const PER_CONVERSATION = number('messages-per-conversation');
const RETENTION = number('retention-seconds');
const CEILING = number('cpu-ceiling');
const REDIS_CEILING = number('redis-cpu-ceiling');
const SHARD_BYTES = number('redis-shard-gb') * 2 ** 30;
const SPARE = number('spare-instances');

const say = (line = '') => process.stdout.write(`${line}\n`);
const f = (value, digits = 0) =>
  Number(value).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const gb = (bytes) => `${f(bytes / 2 ** 30, 1)} GB`;
const mib = (bytes) => `${f(bytes / 2 ** 20)} MB`;

// ---------------------------------------------------------------- the measured inputs
const cpu = messages.cpuMsPerMessage;
say('| # | input | measured | printed by |');
say('|---|---|---|---|');
const inputs = [
  ['M1', 'relay-gateway CPU per message', `${f(cpu.relay, 3)} CPU-ms`, messages.command],
  [
    'M2',
    'connector-gateway CPU per message (one delivery + one reply)',
    `${f(cpu.connector, 3)} CPU-ms`,
    messages.command,
  ],
  ['M3', 'redis-server CPU per message', `${f(cpu.redis, 3)} CPU-ms`, messages.command],
  [
    'M4',
    'Redis commands per message (script-internal included)',
    f(messages.redisCommandsPerMessage, 1),
    messages.command,
  ],
  [
    'M5',
    'Redis network bytes per message, in / out',
    `${f(messages.redisInputBytesPerMessage)} / ${f(messages.redisOutputBytesPerMessage)}`,
    messages.command,
  ],
  [
    'M6',
    `latency at ${f(messages.rate)} msg/s: end-to-end p50 / p99, relay processing p99`,
    `${f(messages.endToEndP50, 1)} / ${f(messages.endToEndP99, 1)} / ${f(messages.processingP99, 1)} ms (targets ${messages.targetsMet ? 'met' : 'not met'})`,
    messages.command,
  ],
  [
    'M7',
    'relay-gateway / connector-gateway RSS under that load',
    `${mib(messages.rssBytes.relay)} / ${mib(messages.rssBytes.connector)}`,
    messages.command,
  ],
  [
    'S1',
    `relay RSS per idle stream (slope, ${f(streams.streams)} streams)`,
    `${f(streams.perStream.rssBytes / 1024, 1)} KB`,
    streams.command,
  ],
  [
    'S2',
    'relay V8 heap per idle stream (after a full GC)',
    `${f(streams.perStream.heapBytes / 1024, 1)} KB`,
    streams.command,
  ],
  [
    'S3',
    `relay RSS with ${f(streams.streams)} idle streams`,
    mib(streams.relayRssBytes.all),
    streams.command,
  ],
  [
    'S4',
    'relay CPU per idle stream (keep-alive every 15 s)',
    `${f(streams.idleCpuMsPerStreamPerMinute, 3)} CPU-ms/min`,
    streams.command,
  ],
  [
    'S5',
    'Redis memory per open stream (bus channel subscription)',
    `${f(streams.perStream.redisBytes)} bytes`,
    streams.command,
  ],
  [
    'R1',
    'Redis memory per started conversation',
    `${f(redis.perStartedConversationBytes)} bytes`,
    redis.command,
  ],
  [
    'R2',
    `Redis memory per retained activity (${f(redis.activityJsonBytes)} bytes of JSON; its log's share)`,
    `${f(redis.perRetainedActivityBytes)} bytes`,
    redis.command,
  ],
  [
    'R3',
    `Redis short-lived keys per message (rate-limit counters, append markers; ≤ ${f(redis.transientTtlSeconds)} s)`,
    `${f(redis.transientBytesPerMessage)} bytes`,
    redis.command,
  ],
];
for (const [id, what, value, command] of inputs) say(`| ${id} | ${what} | ${value} | \`${command}\` |`);

// ---------------------------------------------------------------- the derivation
const relayBusy = (RATE * cpu.relay) / 1000 + (STREAMS * streams.idleCpuMsPerStreamPerMinute) / 60_000;
const relayInstances = Math.ceil(relayBusy / CEILING) + SPARE;
const streamsPerRelay = STREAMS / (relayInstances - SPARE);
const relayMemory = messages.rssBytes.relay + streamsPerRelay * streams.perStream.rssBytes;
const connectorBusy = (RATE * cpu.connector) / 1000;
const connectorInstances = Math.ceil(connectorBusy / CEILING) + SPARE;
const redisBusy = (RATE * cpu.redis) / 1000;
const newPerSecond = RATE / PER_CONVERSATION;
const activitiesPerConversation = 2 * PER_CONVERSATION;
const perConversation =
  redis.perStartedConversationBytes + activitiesPerConversation * redis.perRetainedActivityBytes;
// The bench reads the TTL left on one key; counters and markers are set for whole minutes (60 s windows).
const transientSeconds = Math.ceil(redis.transientTtlSeconds / 60) * 60;
const transientMemory = RATE * transientSeconds * redis.transientBytesPerMessage;
const heldConversations = CONVERSATIONS + newPerSecond * RETENTION;
const redisMemory =
  heldConversations * perConversation + STREAMS * streams.perStream.redisBytes + transientMemory;
const shardsForCpu = Math.ceil(redisBusy / REDIS_CEILING);
const shardsForMemory = Math.ceil(redisMemory / SHARD_BYTES);
const shards = Math.max(3, shardsForCpu, shardsForMemory);

say('');
say('| quantity | derivation | value |');
say('|---|---|---|');
const rows = [
  ['relay cores busy', `${f(RATE)} msg/s × M1 + ${f(STREAMS)} streams × S4`, `${f(relayBusy, 2)} cores`],
  [
    'relay instances (1 vCPU each)',
    `⌈busy ÷ ${CEILING} ceiling⌉ + ${SPARE} spare`,
    `**${f(relayInstances)}**`,
  ],
  ['streams per relay instance', `${f(STREAMS)} ÷ ${f(relayInstances - SPARE)}`, f(streamsPerRelay)],
  [
    'relay memory per instance',
    'M7 + streams per instance × S1',
    `${mib(relayMemory)} (limit: ${mib(relayMemory * 1.5)})`,
  ],
  ['connector cores busy', `${f(RATE)} × M2`, `${f(connectorBusy, 2)} cores`],
  [
    'connector instances (1 vCPU each)',
    `⌈busy ÷ ${CEILING}⌉ + ${SPARE} spare`,
    `**${f(connectorInstances)}**`,
  ],
  [
    'connector memory per instance',
    'M7 (it holds no per-stream state)',
    `${mib(messages.rssBytes.connector)} (limit: ${mib(messages.rssBytes.connector * 1.5)})`,
  ],
  ['Redis cores busy (all shards)', `${f(RATE)} × M3`, `${f(redisBusy, 2)} cores`],
  ['Redis commands/s (all shards)', `${f(RATE)} × M4`, f(RATE * messages.redisCommandsPerMessage)],
  [
    'Redis network (all shards)',
    `${f(RATE)} × M5`,
    `${f((RATE * messages.redisInputBytesPerMessage) / 1e6, 1)} MB/s in, ${f((RATE * messages.redisOutputBytesPerMessage) / 1e6, 1)} MB/s out`,
  ],
  [
    'conversations held in Redis',
    `${f(CONVERSATIONS)} active + ${f(newPerSecond)} new/s (${f(RATE)} ÷ ${PER_CONVERSATION} messages each) × ${f(RETENTION)} s retention`,
    f(heldConversations),
  ],
  [
    'Redis memory per conversation',
    `R1 + ${activitiesPerConversation} activities × R2`,
    `${f(perConversation)} bytes`,
  ],
  ['Redis short-lived keys', `${f(RATE)} msg/s × ${f(transientSeconds)} s × R3`, gb(transientMemory)],
  ['Redis memory (data)', 'held × per conversation + streams × S5 + short-lived keys', gb(redisMemory)],
  [
    'Redis Cluster primaries',
    `max(3, ⌈cores ÷ ${REDIS_CEILING}⌉ = ${shardsForCpu}, ⌈memory ÷ ${number('redis-shard-gb')} GB⌉ = ${shardsForMemory})`,
    `**${f(shards)}** (+ 1 replica each)`,
  ],
  ['memory per primary', 'memory ÷ primaries', gb(redisMemory / shards)],
];
for (const [what, how, value] of rows) say(`| ${what} | ${how} | ${value} |`);

say('');
say(
  '| CONVERSATION_RETENTION_SECONDS | conversations held | Redis memory (data) | primaries at the shard size |',
);
say('|---|---|---|---|');
for (const retention of [...new Set([RETENTION, 86_400, 3_600, 900])]) {
  const held = CONVERSATIONS + newPerSecond * retention;
  const memory = held * perConversation + STREAMS * streams.perStream.redisBytes + transientMemory;
  say(
    `| ${f(retention)} | ${f(held)} | ${gb(memory)} | ${f(Math.max(3, shardsForCpu, Math.ceil(memory / SHARD_BYTES)))} |`,
  );
}
