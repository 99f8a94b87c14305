import { Global, Module } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { InspectionApiClient } from './inspection-api.client';

/** inspection-api with the bot's service account: one client for the dialog, readiness and the chat page's sign-in. */
@Global()
@Module({
  providers: [
    {
      provide: InspectionApiClient,
      inject: [InspectionBotEnvironment, LOGGER],
      useFactory: (environment: InspectionBotEnvironment, logger: Logger) =>
        new InspectionApiClient({
          baseUrl: environment.INSPECTION_API_URL,
          username: environment.INSPECTION_BOT_API_USERNAME,
          password: environment.INSPECTION_BOT_API_PASSWORD,
          logger: logger.child({ component: 'inspection-api-client' }),
        }),
    },
  ],
  exports: [InspectionApiClient],
})
export class InspectionApiModule {}
