import 'reflect-metadata';
import { runUntilSignalled } from '@fieldops/platform';
import { startRelayGateway } from './start-relay-gateway';

runUntilSignalled(async () => {
  const running = await startRelayGateway();
  return { logger: running.logger, running };
});
