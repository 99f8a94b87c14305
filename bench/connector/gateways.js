// connector-gateway and relay-gateway under benchmark, in their own process (forked by run.js) so that the load
// generator does not share their event loop. With REDIS_URL set they share Redis (store and bus) as separate
// instances would; otherwise one in-process store and bus.
'use strict';
const { createActivityBus } = require('@fieldops/bus');
const { createConversationStore } = require('@fieldops/conversation-store');
const { startConnectorGateway } = require('@fieldops/connector-gateway');
const { startRelayGateway } = require('@fieldops/relay-gateway');

async function main() {
  const environment = JSON.parse(process.env.BENCH_GATEWAY_ENVIRONMENT);
  const shared = environment.REDIS_URL ? {} : { store: createConversationStore(), bus: createActivityBus() };
  const connector = await startConnectorGateway({ environment, ...shared });
  const relay = await startRelayGateway({
    environment: { ...environment, RELAY_BOT_SERVICE_URL: `${connector.url}/`, RELAY_BOT_DELIVERY: 'direct' },
    ...shared,
  });
  process.on('message', (message) => {
    if (message === 'memory') process.send({ memory: process.memoryUsage() });
    if (message === 'stop') {
      void (async () => {
        await relay.close();
        await connector.close();
        await shared.bus?.close();
        await shared.store?.close();
        process.exit(0);
      })();
    }
  });
  process.send({ connectorUrl: connector.url, relayUrl: relay.url });
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
