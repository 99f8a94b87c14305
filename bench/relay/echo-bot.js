// The external echo bot of compare.js, in a process of its own: an HTTP server that answers 200 to every delivery
// and, for a `message`, POSTs its reply to `{serviceUrl}/v3/conversations/{conversation.id}/activities/{activity.id}`
// (the Bot Connector's ReplyToActivity) over keep-alive connections, as a botbuilder bot does. Anonymous: it sends
// no Authorization (the bench's platform configuration registers it with `anonymous: true`; offline-directline has
// no auth at all). Started with fork(); reports `{port}` and answers 'cpu' with its process.cpuUsage().
'use strict';
const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 10_000 });
let replies = 0;
let replyErrors = 0;

function reply(activity) {
  const serviceUrl = String(activity.serviceUrl ?? '').replace(/\/+$/, '');
  const url = new URL(
    `${serviceUrl}/v3/conversations/${encodeURIComponent(activity.conversation.id)}/activities/${encodeURIComponent(activity.id)}`,
  );
  const body = Buffer.from(
    JSON.stringify({
      type: 'message',
      from: activity.recipient ?? { id: 'echo-bot' },
      recipient: activity.from,
      conversation: activity.conversation,
      replyToId: activity.id,
      text: `echo: ${activity.text}`,
    }),
  );
  const request = http.request(
    url,
    {
      method: 'POST',
      agent,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length },
    },
    (response) => {
      if (response.statusCode >= 300) replyErrors += 1;
      else replies += 1;
      response.resume();
    },
  );
  request.on('error', () => {
    replyErrors += 1;
  });
  request.end(body);
}

function startEchoBot() {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let activity;
      try {
        activity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200).end();
      if (activity.type === 'message') reply(activity);
    });
  });
  server.keepAliveTimeout = 70_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

if (require.main === module) {
  startEchoBot().then((server) => {
    process.on('message', (message) => {
      if (message === 'cpu') process.send({ cpu: process.cpuUsage(), replies, replyErrors });
      if (message === 'stop') server.close(() => process.exit(0));
    });
    process.send({ port: server.address().port });
  });
}

module.exports = { startEchoBot };
