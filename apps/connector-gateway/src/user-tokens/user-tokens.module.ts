import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigurationError } from '@fieldops/platform';
import { type RegisteredBot } from '../bots/registered-bot';
import { type ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { DeliveryModule } from '../delivery/delivery.module';
import { OAuthProviders } from './oauth-providers';
import { SignInController } from './sign-in.controller';
import { UserTokenController } from './user-token.controller';
import { UserTokenCrypto } from './user-token-crypto';
import { UserTokenService } from './user-token.service';
import {
  InProcessUserTokenStore,
  RedisUserTokenStore,
  USER_TOKEN_STORE,
  type UserTokenStore,
} from './user-token-store';

class UserTokenStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(USER_TOKEN_STORE) private readonly store: UserTokenStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * The user-token service (OAuthPrompt, the Agents SDK's user authorization): the token service API for bots and the
 * sign-in pages for users' browsers, over a store every instance shares (Redis when REDIS_URL is set).
 */
@Module({})
export class UserTokensModule {
  static forRoot(environment: ConnectorGatewayEnvironment, bots: readonly RegisteredBot[]): DynamicModule {
    const redisUrl = environment.REDIS_URL?.trim();
    const anyConnection = bots.some((bot) => (bot.oauthConnections?.length ?? 0) > 0);
    if (redisUrl && anyConnection && environment.CONNECTOR_USER_TOKEN_KEY === undefined)
      throw new ConfigurationError('connector-gateway environment', [
        'CONNECTOR_USER_TOKEN_KEY: required with REDIS_URL when a bot has oauthConnections (every instance must read the tokens the others stored)',
      ]);
    return {
      module: UserTokensModule,
      imports: [DeliveryModule],
      controllers: [UserTokenController, SignInController],
      providers: [
        { provide: UserTokenCrypto, useValue: new UserTokenCrypto(environment.CONNECTOR_USER_TOKEN_KEY) },
        {
          provide: USER_TOKEN_STORE,
          // Same Redis as the bus and the store, whose readiness checks already cover it.
          useFactory: (): UserTokenStore =>
            redisUrl
              ? new RedisUserTokenStore(redisUrl, environment.STORE_KEY_PREFIX)
              : new InProcessUserTokenStore(),
        },
        UserTokenStoreLifecycle,
        OAuthProviders,
        UserTokenService,
      ],
    };
  }
}
