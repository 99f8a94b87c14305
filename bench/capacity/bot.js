// The capacity benches' bot, a process of its own (forked by platform.js): an HTTP server at /api/messages that
// answers every message as botbuilder's CloudAdapter does — the reply goes to `{serviceUrl}v3/conversations/{id}/
// activities/{replyToId}` with a Bearer token the bot took from connector-gateway with its app password (client
// credentials, cached until near expiry), then the delivery is answered 200. The reply echoes the text and the
// message's channelData (the load generator's key). Hand-written instead of botbuilder so the bot's own CPU stays
// small on a 2-core machine; the connector's work (verifying the token, appending, publishing) is the same.
'use strict';

const http = require('node:http');

const settings = JSON.parse(process.env.CAPACITY_BOT);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let token; // { value, renewAt }

/** POSTs once more when a kept-alive connection was closed by the server just as the request went out. */
async function post(url, headers, body) {
  try {
    return await postOnce(url, headers, body);
  } catch (error) {
    if (error.code !== 'ECONNRESET') throw error;
    return postOnce(url, headers, body);
  }
}

function postOnce(url, headers, body) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(body);
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'Content-Length': payload.length } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function accessToken(serviceUrl) {
  if (token && Date.now() < token.renewAt) return token.value;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: settings.appId,
    client_secret: settings.password,
    scope: 'https://api.botframework.com/.default',
  }).toString();
  const answer = await post(
    new URL('botframework.com/oauth2/v2.0/token', serviceUrl),
    { 'Content-Type': 'application/x-www-form-urlencoded' },
    form,
  );
  if (answer.status !== 200) throw new Error(`token endpoint answered ${answer.status}: ${answer.body}`);
  const issued = JSON.parse(answer.body);
  token = { value: issued.access_token, renewAt: Date.now() + (issued.expires_in - 300) * 1000 };
  return token.value;
}

async function reply(activity) {
  const bearer = await accessToken(activity.serviceUrl);
  const url = new URL(
    `v3/conversations/${encodeURIComponent(activity.conversation.id)}/activities/${encodeURIComponent(activity.id)}`,
    activity.serviceUrl,
  );
  const answer = await post(
    url,
    { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    JSON.stringify({
      type: 'message',
      channelId: activity.channelId,
      conversation: activity.conversation,
      from: activity.recipient,
      recipient: activity.from,
      replyToId: activity.id,
      text: `echo: ${activity.text}`,
      channelData: activity.channelData,
      inputHint: 'acceptingInput',
    }),
  );
  if (answer.status < 200 || answer.status > 299) throw new Error(`reply answered ${answer.status}`);
}

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let activity;
    try {
      activity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return response.writeHead(400).end();
    }
    if (activity.type !== 'message') return response.writeHead(200).end();
    reply(activity).then(
      () => response.writeHead(200).end(),
      (error) => {
        process.stderr.write(`bench bot: ${error.message}\n`);
        response.writeHead(500).end();
      },
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(settings.port, '127.0.0.1', () => process.send({ port: settings.port }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
