import 'reflect-metadata';
import { runUntilSignalled } from '@fieldops/platform';
import { chatPageUrl } from './config/inspection-bot.environment';
import { startInspectionBot } from './start-inspection-bot';

runUntilSignalled(async () => {
  const running = await startInspectionBot();
  running.logger.info({ url: chatPageUrl(running.environment, running.port) }, 'chat page');
  return { logger: running.logger, running };
});
