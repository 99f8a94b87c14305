import { type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { InspectionBotEnvironment } from './config/inspection-bot.environment';
import { InspectionBotModule } from './inspection-bot.module';

/** Validates the configuration, then starts the bot (POST /api/messages) and its chat page (GET /). */
export function startInspectionBot(
  options: StartServiceOptions = {},
): Promise<StartedService<InspectionBotEnvironment>> {
  return startService(
    {
      service: 'inspection-bot',
      environmentSchema: InspectionBotEnvironment,
      port: (environment) => environment.INSPECTION_BOT_PORT,
      module: ({ environment, logger }) => InspectionBotModule.forRoot({ environment, logger }),
      publicUrl: (environment) => environment.INSPECTION_BOT_PUBLIC_URL,
      // The platform's JSON input rules: invalid UTF-8 and nesting deeper than JSON_MAX_DEPTH are a 400 BadSyntax.
      bodies: () => ({ json: { limit: 1024 * 1024 } }),
    },
    options,
  );
}
