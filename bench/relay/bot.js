// The benchmark's bot in its own process (bench.js with REDIS_URL): an HTTP server that answers every message by
// appending a reply to the shared Redis store and publishing it on the bus, as connector-gateway does with a real
// bot's reply. The relay process then does only the relay's own work: sends, delivery, streams.
'use strict';
const http = require('node:http');
const { createActivityBus } = require('../../libs/bus/dist');
const { createConversationStore } = require('../../libs/conversation-store/dist');

async function main() {
  const redisUrl = process.env.REDIS_URL;
  const store = createConversationStore({ redisUrl, keyPrefix: 'fieldops:store:' });
  const bus = createActivityBus({ redisUrl, channelPrefix: 'fieldops:conversation:' });
  let replies = 0;
  const reply = async (activity) => {
    const conversationId = activity.conversation.id;
    const stored = await store.append(conversationId, {
      type: 'message',
      from: { id: 'bench-bot' },
      replyToId: activity.id,
      text: `echo: ${activity.text}`,
      channelData: activity.channelData,
      channelId: 'directline',
      conversation: { id: conversationId },
    });
    await bus.publish({
      conversationId,
      seq: stored.seq,
      activity: stored.activity,
      correlationId: `bench-${(replies += 1)}`,
    });
  };
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const activity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (activity.type !== 'message') return response.writeHead(200).end();
      reply(activity).then(
        () => response.writeHead(200).end(),
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message) => {
    if (message === 'stop') {
      server.close();
      void Promise.all([store.close?.(), bus.close?.()]).finally(() => process.exit(0));
    }
  });
  process.send({ port: server.address().port });
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
