import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { type Logger, PlatformModule } from '@fieldops/platform';
import { ProactiveModule } from './proactive/proactive.module';
import { BotModule } from './bot/bot.module';
import { ChatPageModule } from './chat-page/chat-page.module';
import { ConfigurationModule } from './config/configuration.module';
import { type InspectionBotEnvironment } from './config/inspection-bot.environment';
import { InspectionApiModule } from './inspection-api/inspection-api.module';
import { InspectionBotExceptionFilter } from './inspection-bot-exception.filter';

export interface InspectionBotModuleOptions {
  environment: InspectionBotEnvironment;
  logger: Logger;
}

@Module({})
export class InspectionBotModule {
  static forRoot({ environment, logger }: InspectionBotModuleOptions): DynamicModule {
    return {
      module: InspectionBotModule,
      imports: [
        PlatformModule.forRoot({ service: 'inspection-bot', logger }),
        ConfigurationModule.forRoot(environment),
        InspectionApiModule,
        BotModule,
        ProactiveModule,
        ChatPageModule,
      ],
      providers: [{ provide: APP_FILTER, useValue: new InspectionBotExceptionFilter(logger) }],
    };
  }
}
