// A bench's window into a Node process started with `--inspect` (the Chrome DevTools protocol over its WebSocket):
// collect garbage, read `process.memoryUsage()`, write a heap snapshot. Used to measure a process exactly (after a
// full collection) without adding anything to the app.
'use strict';

const { WebSocket } = require('./direct-line-client');

/** Connects to the inspector on `port`; resolves `{ call(method, params), close() }`. */
async function connectInspector(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 2 ** 31 });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map();
  const listeners = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString('utf8'));
    if (message.id !== undefined) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    } else listeners.get(message.method)?.(message.params);
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) =>
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result),
      );
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, on: (method, listener) => listeners.set(method, listener), close: () => socket.close() };
}

/** A full garbage collection in the process, then its `process.memoryUsage()`. */
async function memoryAfterCollection(port) {
  const inspector = await connectInspector(port);
  try {
    await inspector.call('HeapProfiler.collectGarbage');
    await inspector.call('HeapProfiler.collectGarbage');
    const { result } = await inspector.call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    return JSON.parse(result.value);
  } finally {
    inspector.close();
  }
}

module.exports = { connectInspector, memoryAfterCollection };
