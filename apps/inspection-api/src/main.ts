import 'reflect-metadata';
import { runUntilSignalled } from '@fieldops/platform';
import { startInspectionApi } from './start-inspection-api';

runUntilSignalled(async () => {
  const running = await startInspectionApi();
  return { logger: running.logger, running };
});
