// Benchmark of connector-gateway (issue #5): token issuing rate, and reply ingestion latency (bot POST on
// connector-gateway → frame on a relay-gateway WebSocket) at a fixed reply rate. Uses the built apps (run
// `npx turbo run build` first). The gateways run in a child process (gateways.js); this process only generates
// load, over keep-alive connections. With REDIS_URL set, the two gateways share Redis (store and bus) as
// separate instances would, otherwise one in-process store and bus.
//
//   node bench/connector/run.js [--duration 10] [--rate 1000] [--connections 10]
'use strict';
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const autocannon = require('autocannon');
const { WebSocket } = require('ws');
const { fork } = require('node:child_process');
const http = require('node:http');

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const DURATION_S = argument('duration', 10);
const RATE = argument('rate', 1000);
const CONNECTIONS = argument('connections', 10);
const out = (line) => process.stdout.write(`${line}\n`);

const BOT = { id: 'bench-bot', appId: 'bench-bot-app', password: 'bench-bot-password-1' };
const SECRET = 'bench-bot-directline-secret-01';

function percentile(sorted, p) {
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'connector-bench-'));
  const configPath = join(directory, 'platform.yaml');
  writeFileSync(
    configPath,
    [
      'bots:',
      `  - id: ${BOT.id}`,
      `    appId: ${BOT.appId}`,
      '    messagingEndpoint: http://127.0.0.1:1/api/messages',
      `    directLine: { secrets: [${SECRET}] }`,
      `    appPassword: ${BOT.password}`,
      'relay:',
      `  tokenSigningKeys: [${'s'.repeat(40)}]`,
    ].join('\n'),
  );
  const runId = randomUUID();
  const environment = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    REDIS_URL: process.env.REDIS_URL,
    BUS_CHANNEL_PREFIX: `fieldops:bench:${runId}:bus:`,
    STORE_KEY_PREFIX: `fieldops:bench:${runId}:store:`,
    PLATFORM_CONFIG: configPath,
    CONNECTOR_GATEWAY_PORT: '0',
    RELAY_GATEWAY_PORT: '0',
    CONNECTOR_DEV_SIGNING_KEY_FILE: join(directory, 'signing-key.pem'),
    RELAY_RATE_LIMIT_PER_TOKEN: '0',
    RELAY_RATE_LIMIT_PER_CONVERSATION: '0',
  };
  const gateways = fork(join(__dirname, 'gateways.js'), [], {
    env: { ...process.env, BENCH_GATEWAY_ENVIRONMENT: JSON.stringify(environment) },
  });
  const ready = await new Promise((resolve, reject) => {
    gateways.once('message', resolve);
    gateways.once('exit', (code) => reject(new Error(`the gateways exited with ${code}`)));
  });
  const connector = { url: ready.connectorUrl };
  const relay = { url: ready.relayUrl };
  out(
    `connector-gateway ${connector.url}, relay-gateway ${relay.url} (one child process); ${process.env.REDIS_URL ? 'Redis' : 'in-process'} store and bus`,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS * 4 });
  const post = (target, headers, body) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(body);
      const request = http.request(
        target,
        { method: 'POST', agent, headers: { ...headers, 'Content-Length': payload.length } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });

  try {
    // 1. Token issuing: client-credentials with a plain app password.
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: BOT.appId,
      client_secret: BOT.password,
      scope: 'https://api.botframework.com/.default',
    }).toString();
    const tokens = await autocannon({
      url: `${connector.url}/botframework.com/oauth2/v2.0/token`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      connections: CONNECTIONS,
      duration: Math.max(3, Math.round(DURATION_S / 2)),
    });
    out(
      `token issuing: ${tokens.requests.average.toFixed(0)} tokens/s (${tokens.non2xx} non-2xx), latency p50 ${tokens.latency.p50} ms, p99 ${tokens.latency.p99} ms`,
    );

    // 2. Reply ingestion: bot POSTs at RATE/s, measured until the frame arrives on the client's socket.
    const issued = await (
      await fetch(`${connector.url}/botframework.com/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      })
    ).json();
    const conversation = await (
      await fetch(`${relay.url}/v3/directline/conversations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}` },
      })
    ).json();
    const latencies = [];
    const sentAt = new Map();
    const socket = new WebSocket(conversation.streamUrl);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.on('message', (data) => {
      const text = data.toString();
      if (!text) return;
      const now = performance.now();
      for (const activity of JSON.parse(text).activities ?? []) {
        const started = sentAt.get(activity.text);
        if (started !== undefined) latencies.push(now - started);
      }
    });
    const url = `${connector.url}/v3/conversations/${encodeURIComponent(conversation.conversationId)}/activities`;
    const headers = { Authorization: `Bearer ${issued.access_token}`, 'Content-Type': 'application/json' };
    let sent = 0;
    let failed = 0;
    const failures = new Map();
    const inFlight = new Set();
    const total = RATE * DURATION_S;
    const begin = performance.now();
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - begin) / 1000) * RATE));
      for (; sent < due; sent += 1) {
        const label = `r${sent}`;
        sentAt.set(label, performance.now());
        const request = post(url, headers, JSON.stringify({ type: 'message', text: label }))
          .then((status) => {
            if (status !== 200) {
              failed += 1;
              failures.set(status, (failures.get(status) ?? 0) + 1);
            }
          })
          .catch((error) => {
            failed += 1;
            const reason = error.cause?.code ?? error.message;
            failures.set(reason, (failures.get(reason) ?? 0) + 1);
          })
          .finally(() => inFlight.delete(request));
        inFlight.add(request);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const sendSeconds = (performance.now() - begin) / 1000;
    await Promise.all(inFlight);
    const deadline = performance.now() + 10_000;
    while (latencies.length < total - failed && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    socket.close();
    const sorted = latencies.slice().sort((a, b) => a - b);
    out(
      `reply ingestion: ${sent} replies in ${sendSeconds.toFixed(1)} s (${(sent / sendSeconds).toFixed(0)}/s offered), ${failed} failed, ${latencies.length} received; bot POST → WebSocket frame p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms${failed ? `; failures ${JSON.stringify(Object.fromEntries(failures))}` : ''}`,
    );
  } finally {
    agent.destroy();
    gateways.send('stop');
    await new Promise((resolve) => gateways.once('exit', resolve));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
