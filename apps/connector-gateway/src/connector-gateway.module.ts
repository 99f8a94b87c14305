import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { type ActivityBus, ActivityBusModule } from '@fieldops/bus';
import { ErrorEnvelopeExceptionFilter, PlatformModule } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from './config/connector-gateway.environment';

export interface ConnectorGatewayModuleOptions {
  environment: ConnectorGatewayEnvironment;
  logger: Logger;
  /** A bus owned by the caller (the all-in-one process shares one between apps). */
  bus?: ActivityBus;
}

@Module({})
export class ConnectorGatewayModule {
  static forRoot({ environment, logger, bus }: ConnectorGatewayModuleOptions): DynamicModule {
    return {
      module: ConnectorGatewayModule,
      imports: [
        PlatformModule.forRoot({ service: 'connector-gateway', logger }),
        ActivityBusModule.forRoot({
          bus,
          redisUrl: environment.REDIS_URL,
          channelPrefix: environment.BUS_CHANNEL_PREFIX,
          logger: logger.child({ component: 'bus' }),
        }),
      ],
      providers: [
        { provide: ConnectorGatewayEnvironment, useValue: environment },
        { provide: APP_FILTER, useClass: ErrorEnvelopeExceptionFilter },
      ],
    };
  }
}
