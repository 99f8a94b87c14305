import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { type ActivityBus, ActivityBusModule } from '@fieldops/bus';
import { ErrorEnvelopeExceptionFilter, PlatformModule } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { RelayGatewayEnvironment } from './config/relay-gateway.environment';

export interface RelayGatewayModuleOptions {
  environment: RelayGatewayEnvironment;
  logger: Logger;
  /** A bus owned by the caller (the all-in-one process shares one between apps). */
  bus?: ActivityBus;
}

@Module({})
export class RelayGatewayModule {
  static forRoot({ environment, logger, bus }: RelayGatewayModuleOptions): DynamicModule {
    return {
      module: RelayGatewayModule,
      imports: [
        PlatformModule.forRoot({ service: 'relay-gateway', logger }),
        ActivityBusModule.forRoot({
          bus,
          redisUrl: environment.REDIS_URL,
          channelPrefix: environment.BUS_CHANNEL_PREFIX,
          logger: logger.child({ component: 'bus' }),
        }),
      ],
      providers: [
        { provide: RelayGatewayEnvironment, useValue: environment },
        { provide: APP_FILTER, useClass: ErrorEnvelopeExceptionFilter },
      ],
    };
  }
}
