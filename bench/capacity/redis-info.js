// Redis's own counters (INFO), for the capacity benches: commands by name, network bytes, memory.
'use strict';

/** INFO's `key:value` lines of one section as an object of strings. */
async function infoSection(redis, section) {
  const text = await redis.info(section);
  const fields = {};
  for (const line of text.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields[line.slice(0, at)] = line.slice(at + 1);
  }
  return fields;
}

/** Calls per command (`INFO commandstats`), e.g. `{ evalsha: 2000, publish: 2000 }`. */
async function commandCalls(redis) {
  const calls = {};
  for (const [key, value] of Object.entries(await infoSection(redis, 'commandstats'))) {
    const match = /(?:^|,)calls=(\d+)/.exec(value);
    if (key.startsWith('cmdstat_') && match) calls[key.slice('cmdstat_'.length)] = Number(match[1]);
  }
  return calls;
}

/** Everything a measured window needs: commands, bytes in and out, memory. */
async function redisCounters(redis) {
  const [calls, stats, memory] = await Promise.all([
    commandCalls(redis),
    infoSection(redis, 'stats'),
    infoSection(redis, 'memory'),
  ]);
  return {
    calls,
    inputBytes: Number(stats.total_net_input_bytes),
    outputBytes: Number(stats.total_net_output_bytes),
    usedMemory: Number(memory.used_memory),
  };
}

/** Commands called between two `commandCalls` readings, without the bench's own INFO calls. */
function callsBetween(before, after) {
  const delta = {};
  for (const [name, calls] of Object.entries(after)) {
    const difference = calls - (before[name] ?? 0);
    if (difference > 0 && name !== 'info') delta[name] = difference;
  }
  return delta;
}

module.exports = { callsBetween, commandCalls, infoSection, redisCounters };
