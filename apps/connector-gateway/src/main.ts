import 'reflect-metadata';
import { runUntilSignalled } from '@fieldops/platform';
import { startConnectorGateway } from './start-connector-gateway';

runUntilSignalled(async () => {
  const running = await startConnectorGateway();
  return { logger: running.logger, running };
});
