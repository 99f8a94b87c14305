// The load generator's side of Direct Line 3.0, as DirectLineJS speaks it (raw HTTP and WebSocket, keep-alive).
'use strict';

const http = require('node:http');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const { WebSocket } = require(require.resolve('ws', { paths: [path.join(root, 'apps/relay-gateway')] }));

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** One HTTP request with a JSON body; resolves status, headers and the parsed body. */
function request(method, url, bearer, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const outgoing = http.request(
      url,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${bearer}`,
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: response.statusCode, headers: response.headers, body: parsed });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** POST /conversations with the Direct Line secret: `{ conversationId, token, streamUrl }`. */
async function startConversation(domain, secret) {
  const answer = await request('POST', `${domain}/conversations`, secret, {});
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`start conversation answered ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

/** Opens a conversation's stream; `onActivity` gets every activity of every frame. */
function openStream(streamUrl, onActivity, socketOptions = {}) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(streamUrl, socketOptions);
    socket.on('message', (data) => {
      const text = data.toString('utf8');
      if (!text) return;
      for (const activity of JSON.parse(text).activities ?? []) onActivity(activity);
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Runs `task(index)` for 0 … count-1 with at most `concurrency` at a time. */
async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

function percentile(values, p) {
  const sorted = Float64Array.from(values).sort();
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

module.exports = { WebSocket, agent, inParallel, openStream, percentile, request, startConversation };
