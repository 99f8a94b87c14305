import { type DynamicModule, Global, Module } from '@nestjs/common';
import { KeyRing } from '@fieldops/auth';
import { type Logger } from '@fieldops/platform';
import { type ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { createConnectorKeyRing } from './connector-key-ring';

/** The gateway's RS256 key ring (configured keys on their rotation schedule, or the development key). */
@Global()
@Module({})
export class SigningKeysModule {
  static forRoot(environment: ConnectorGatewayEnvironment, logger: Logger): DynamicModule {
    return {
      module: SigningKeysModule,
      providers: [{ provide: KeyRing, useValue: createConnectorKeyRing(environment, logger) }],
      exports: [KeyRing],
    };
  }
}
