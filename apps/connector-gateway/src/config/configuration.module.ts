import { type DynamicModule, Global, Module } from '@nestjs/common';
import { ConnectorGatewayEnvironment } from './connector-gateway.environment';

/** The validated environment, injectable everywhere. */
@Global()
@Module({})
export class ConfigurationModule {
  static forRoot(environment: ConnectorGatewayEnvironment): DynamicModule {
    return {
      module: ConfigurationModule,
      providers: [{ provide: ConnectorGatewayEnvironment, useValue: environment }],
      exports: [ConnectorGatewayEnvironment],
    };
  }
}
