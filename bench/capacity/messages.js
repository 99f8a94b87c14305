#!/usr/bin/env node
// Capacity inputs per message, in Redis mode: CPU time of relay-gateway, connector-gateway and redis-server per
// message (a user's message POSTed to the relay, delivered through connector-gateway to the bot, the bot's reply
// ingested by connector-gateway, both on the user's WebSocket), the latency at that rate, and Redis commands and
// network bytes per message (INFO commandstats / INFO stats deltas over the measured window).
//   npm run build && node bench/capacity/messages.js [--rate 1000] [--seconds 20] [--conversations N] [--relays 1]
// See bench/capacity/README.md.
'use strict';

const { writeFileSync } = require('node:fs');
const { parseArgs } = require('node:util');
const { startPlatform } = require('./platform');
const { cpuOf, residentSetBytes } = require('./process-stats');
const { callsBetween, redisCounters } = require('./redis-info');
const { inParallel, openStream, percentile, request, startConversation } = require('./direct-line-client');

const { values: options } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    'warm-up': { type: 'string', default: '5' },
    conversations: { type: 'string' },
    relays: { type: 'string', default: '1' },
    'redis-port': { type: 'string' },
    'app-port': { type: 'string' },
    json: { type: 'string' },
  },
});
const RATE = Number(options.rate);
const SECONDS = Number(options.seconds);
const WARM_UP = Number(options['warm-up']);
const RELAYS = Number(options.relays);
// The relay's default per-conversation limit is 300 sends a minute: stay at half of it.
const CONVERSATIONS = Number(options.conversations ?? Math.max(200, Math.ceil((RATE * 60) / 150)));
const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const platform = await startPlatform({
    relays: RELAYS,
    redisPort: options['redis-port'] && Number(options['redis-port']),
    appPort: options['app-port'] && Number(options['app-port']),
    // The per-secret limit (600 a minute) would stop the bench creating its conversations with one secret; the
    // limiter still runs on every request (same Redis work), only its ceiling is high.
    relayEnvironment: { RELAY_RATE_LIMIT_PER_TOKEN: '100000000' },
  });
  try {
    const processes = {
      relay: platform.relays.map((relay) => relay.pid),
      connector: platform.connector.pid,
      redis: platform.redis.pid,
      bot: platform.bot.pid,
      'load generator': process.pid,
    };
    say(
      `platform: redis-server ${platform.redis.url} (AOF everysec), connector-gateway ${platform.connector.url}, ` +
        `relay-gateway ${platform.relays.map((relay) => relay.url).join(' ')}, bench bot (app password), each its own process`,
    );

    // Conversations, one WebSocket each (the user's), spread over the relays.
    const conversations = [];
    const pending = new Map(); // key → on answer
    await inParallel(CONVERSATIONS, 32, async (index) => {
      const relay = platform.relays[index % RELAYS];
      const started = await startConversation(relay.domain, platform.secret);
      const socket = await openStream(started.streamUrl, (activity) => {
        const key = activity.channelData?.key;
        if (activity.replyToId && key) {
          const answered = pending.get(key);
          if (answered) {
            pending.delete(key);
            answered();
          }
        }
      });
      conversations[index] = { ...started, relay, socket };
    });
    say(`${CONVERSATIONS} conversations, one WebSocket each`);

    const endToEnd = [];
    const processing = [];
    const failures = new Map();
    const send = async (conversation, key) => {
      const answer = await request(
        'POST',
        `${conversation.relay.domain}/conversations/${conversation.conversationId}/activities`,
        conversation.token,
        {
          type: 'message',
          from: { id: `user-${conversation.conversationId}` },
          text: key,
          channelData: { key },
        },
      );
      if (answer.status !== 200)
        throw new Error(`send answered ${answer.status} ${answer.body?.error?.code ?? ''}`);
      const timing = /dur=([\d.]+)/.exec(answer.headers['server-timing'] ?? '');
      if (timing) processing.push(Number(timing[1]));
    };
    /** Sends at RATE for `seconds` (an open loop), then waits up to 5 s for the answers. */
    const run = async (label, seconds, onDrained) => {
      let sent = 0;
      let failed = 0;
      let answered = 0;
      const begin = performance.now();
      const until = begin + seconds * 1000;
      while (performance.now() < until) {
        const due = Math.min(Math.floor(((performance.now() - begin) / 1000) * RATE), RATE * seconds);
        for (; sent < due; sent += 1) {
          const key = `${label}-${sent}`;
          const at = performance.now();
          pending.set(key, () => {
            answered += 1;
            endToEnd.push(performance.now() - at);
          });
          send(conversations[sent % CONVERSATIONS], key).catch((error) => {
            failed += 1;
            failures.set(error.message, (failures.get(error.message) ?? 0) + 1);
            pending.delete(key);
          });
        }
        await sleep(2);
      }
      const sendingSeconds = (performance.now() - begin) / 1000;
      const drainUntil = performance.now() + 5_000;
      while (answered + failed < sent && performance.now() < drainUntil) await sleep(5);
      // Read at the end of the drain, so the window holds all the work of its messages.
      const windowSeconds = (performance.now() - begin) / 1000;
      const atEnd = await onDrained?.();
      return { sent, failed, answered, sendingSeconds, windowSeconds, atEnd };
    };

    await run('warm-up', WARM_UP);
    endToEnd.length = 0;
    processing.length = 0;
    failures.clear();
    const pids = {
      ...Object.fromEntries(processes.relay.map((pid, index) => [`relay${index}`, pid])),
      connector: processes.connector,
      redis: processes.redis,
      bot: processes.bot,
      loader: processes['load generator'],
    };
    const cpuBefore = cpuOf(pids);
    const redisBefore = await redisCounters(platform.redis.client);
    const result = await run('measured', SECONDS, async () => ({
      cpu: cpuOf(pids),
      redis: await redisCounters(platform.redis.client),
    }));
    const { sent, failed, answered, sendingSeconds, windowSeconds, atEnd } = result;
    const cpuMs = (label) => atEnd.cpu[label] - cpuBefore[label];
    const relayMs = processes.relay.reduce((sum, _pid, index) => sum + cpuMs(`relay${index}`), 0);

    say('');
    say(
      `measured: ${RATE} messages/s offered for ${SECONDS} s (after ${WARM_UP} s of warm-up), ${CONVERSATIONS} conversations`,
    );
    say(
      `  sent ${sent} (${(sent / sendingSeconds).toFixed(0)}/s), failed ${failed}, answered on the socket ${answered}, unanswered ${sent - failed - answered}`,
    );
    for (const [reason, count] of failures) say(`  failed: ${count} × ${reason}`);
    const e2e50 = percentile(endToEnd, 50);
    const e2e99 = percentile(endToEnd, 99);
    const proc99 = percentile(processing, 99);
    say(
      `  end-to-end (POST → bot reply on the socket): p50 ${e2e50.toFixed(2)} ms, p99 ${e2e99.toFixed(2)} ms; relay processing per send (Server-Timing): p50 ${percentile(processing, 50).toFixed(3)} ms, p99 ${proc99.toFixed(3)} ms`,
    );
    const targets = e2e50 < 5 && e2e99 < 50 && proc99 < 10 && failed === 0 && answered === sent;
    say(
      `  latency targets (processing p99 < 10 ms, end-to-end p50 < 5 ms and p99 < 50 ms, 0 lost): ${targets ? 'met' : 'NOT met'}`,
    );
    say('');
    if (answered < sent * 0.99) {
      say(
        `SATURATED: only ${answered} of ${sent} messages were answered; the figures below are not per completed message. Lower --rate.`,
      );
    }
    say(
      `CPU per answered message (one user message and the bot reply; /proc utime+stime from the window's start to its last answer, ${windowSeconds.toFixed(1)} s):`,
    );
    const line = (label, ms, unit, pids) => {
      const perMessage = ms / answered;
      const rss = pids.reduce((sum, pid) => sum + (residentSetBytes(pid) ?? 0), 0);
      say(
        `  ${label.padEnd(20)} ${perMessage.toFixed(3).padStart(7)} CPU-ms/message  ${(ms / (windowSeconds * 1000)).toFixed(2).padStart(5)} cores busy  → ${(1000 / perMessage).toFixed(0).padStart(6)} ${unit} per core  (RSS ${(rss / 1048576).toFixed(0)} MB)`,
      );
    };
    line(`relay-gateway${RELAYS > 1 ? ` ×${RELAYS}` : ''}`, relayMs, 'messages/s', processes.relay);
    line('connector-gateway', cpuMs('connector'), 'deliveries+replies/s', [processes.connector]);
    line('redis-server', cpuMs('redis'), 'messages/s', [processes.redis]);
    line('bench bot', cpuMs('bot'), 'messages/s', [processes.bot]);
    line('load generator', cpuMs('loader'), 'messages/s', [process.pid]);

    const calls = callsBetween(redisBefore.calls, atEnd.redis.calls);
    const totalCalls = Object.values(calls).reduce((sum, count) => sum + count, 0);
    say('');
    say(
      `Redis per answered message: ${(totalCalls / answered).toFixed(2)} commands (INFO commandstats; commands a script runs are counted too), ` +
        `${((atEnd.redis.inputBytes - redisBefore.inputBytes) / answered).toFixed(0)} bytes in, ` +
        `${((atEnd.redis.outputBytes - redisBefore.outputBytes) / answered).toFixed(0)} bytes out (INFO stats total_net_*_bytes)`,
    );
    say(
      `  ${Object.entries(calls)
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => `${name} ${(count / answered).toFixed(2)}`)
        .join(', ')}`,
    );
    if (options.json) {
      const perMessage = (ms) => ms / answered;
      writeFileSync(
        options.json,
        `${JSON.stringify(
          {
            bench: 'messages',
            command: `node bench/capacity/messages.js ${process.argv.slice(2).join(' ')}`.trim(),
            at: new Date().toISOString(),
            rate: RATE,
            seconds: SECONDS,
            conversations: CONVERSATIONS,
            relays: RELAYS,
            sent,
            failed,
            answered,
            endToEndP50: e2e50,
            endToEndP99: e2e99,
            processingP50: percentile(processing, 50),
            processingP99: proc99,
            targetsMet: targets,
            cpuMsPerMessage: {
              relay: perMessage(relayMs),
              connector: perMessage(cpuMs('connector')),
              redis: perMessage(cpuMs('redis')),
              bot: perMessage(cpuMs('bot')),
              loadGenerator: perMessage(cpuMs('loader')),
            },
            rssBytes: {
              relay: processes.relay.reduce((sum, pid) => sum + (residentSetBytes(pid) ?? 0), 0) / RELAYS,
              connector: residentSetBytes(processes.connector),
            },
            redisCommandsPerMessage: totalCalls / answered,
            redisCommandsByName: Object.fromEntries(
              Object.entries(calls).map(([name, count]) => [name, count / answered]),
            ),
            redisInputBytesPerMessage: (atEnd.redis.inputBytes - redisBefore.inputBytes) / answered,
            redisOutputBytesPerMessage: (atEnd.redis.outputBytes - redisBefore.outputBytes) / answered,
          },
          null,
          2,
        )}\n`,
      );
    }
    for (const conversation of conversations) conversation.socket.terminate();
  } finally {
    await platform.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
