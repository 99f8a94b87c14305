import { type DynamicModule, Global, Module } from '@nestjs/common';
import { InspectionBotEnvironment } from './inspection-bot.environment';

/** The validated environment, injectable everywhere. */
@Global()
@Module({})
export class ConfigurationModule {
  static forRoot(environment: InspectionBotEnvironment): DynamicModule {
    return {
      module: ConfigurationModule,
      providers: [{ provide: InspectionBotEnvironment, useValue: environment }],
      exports: [InspectionBotEnvironment],
    };
  }
}
