// A process of idle-streams.js that holds idle WebSocket streams (forked, so the bench can hold more sockets than one
// process may open). Messages from the parent: `{ create: { domain, secret, count } }` starts `count` conversations;
// `{ open: { count, localAddresses } }` opens streams on the next `count` of them (a fresh streamUrl each, through
// `GET /conversations/{id}?watermark=`), each from one of the loopback
// source addresses in turn (one source address reaches one ip:port at most ~28,000 times); `stop` closes them.
'use strict';

const { inParallel, openStream, request, startConversation } = require('./direct-line-client');

const conversations = [];
const sockets = [];
let dropped = 0;

process.on('message', (message) => {
  void handle(message).catch((error) => {
    process.send({ error: error.message });
  });
});

async function handle(message) {
  if (message.create) {
    const { domain, secret, count } = message.create;
    const from = conversations.length;
    await inParallel(count, 32, async (index) => {
      conversations[from + index] = { ...(await startConversation(domain, secret)), domain };
    });
    process.send({ created: conversations.length });
  } else if (message.open) {
    const { count, localAddresses } = message.open;
    const from = sockets.length;
    await inParallel(count, 64, async (index) => {
      const conversation = conversations[from + index];
      // A fresh streamUrl (its token lives a short while), as DirectLineJS takes one when it reconnects.
      const resumed = await request(
        'GET',
        `${conversation.domain}/conversations/${conversation.conversationId}?watermark=`,
        conversation.token,
      );
      if (resumed.status !== 200) throw new Error(`GET conversation answered ${resumed.status}`);
      const socket = await openStream(resumed.body.streamUrl, () => undefined, {
        localAddress: localAddresses[(from + index) % localAddresses.length],
      });
      socket.on('close', () => (dropped += 1));
      sockets[from + index] = socket;
    });
    process.send({ open: sockets.length - dropped, dropped });
  } else if (message === 'count') {
    process.send({ open: sockets.length - dropped, dropped });
  } else if (message === 'stop') {
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  }
}
