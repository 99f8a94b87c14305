import { type DynamicModule, Global, Module } from '@nestjs/common';
import { BotRegistry, InMemoryBotRegistry } from './bot-registry';
import { type RegisteredBot } from './registered-bot';

/** The bot registry, for every module of the app. */
@Global()
@Module({})
export class BotsModule {
  static forRoot(bots: readonly RegisteredBot[]): DynamicModule {
    return {
      module: BotsModule,
      providers: [{ provide: BotRegistry, useValue: new InMemoryBotRegistry(bots) }],
      exports: [BotRegistry],
    };
  }
}
