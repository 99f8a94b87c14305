import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { type ActivityBus, ActivityBusModule } from '@fieldops/bus';
import { type ConversationStore, ConversationStoreModule } from '@fieldops/conversation-store';
import { PlatformModule } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { type AiServicesConfig, defaultAiServicesConfig } from '@fieldops/platform-config';
import { AiServicesModule } from './ai-services/ai-services.module';
import { ConnectorGatewayExceptionFilter } from './connector-gateway-exception.filter';
import { BotAuthModule } from './bot-auth/bot-auth.module';
import { BotTokensModule } from './bot-tokens/bot-tokens.module';
import { BotsModule } from './bots/bots.module';
import { ConversationsModule } from './conversations/conversations.module';
import { DeliveryModule } from './delivery/delivery.module';
import { type RegisteredBot } from './bots/registered-bot';
import { ConfigurationModule } from './config/configuration.module';
import { ConnectorGatewayEnvironment } from './config/connector-gateway.environment';
import { ManagedIdentityModule } from './managed-identity/managed-identity.module';
import { OAuthModule } from './oauth/oauth.module';
import { OpenIdModule } from './openid/openid.module';
import { SigningKeysModule } from './signing-keys/signing-keys.module';
import { UserTokensModule } from './user-tokens/user-tokens.module';

export interface ConnectorGatewayModuleOptions {
  environment: ConnectorGatewayEnvironment;
  logger: Logger;
  /** A bus owned by the caller (the all-in-one process shares one between apps). */
  bus?: ActivityBus;
  /** A conversation store owned by the caller (shared between apps in one process). */
  store?: ConversationStore;
  /** The registered bots (from the platform configuration file, or given by tests). */
  bots?: readonly RegisteredBot[];
  /** AI resources, translation provider and addresses (default: none, embedded phrasebook). */
  aiServices?: AiServicesConfig;
}

@Module({})
export class ConnectorGatewayModule {
  static forRoot({
    environment,
    logger,
    bus,
    store,
    bots = [],
    aiServices = defaultAiServicesConfig(),
  }: ConnectorGatewayModuleOptions): DynamicModule {
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
        ConversationStoreModule.forRoot({
          store,
          redisUrl: environment.REDIS_URL,
          keyPrefix: environment.STORE_KEY_PREFIX,
          retentionSeconds: environment.CONVERSATION_RETENTION_SECONDS,
          maxUploadBytes: environment.STORE_MAX_UPLOAD_BYTES,
          replicaAcks: environment.STORE_REPLICA_ACKS,
          replicaAckTimeoutMs: environment.STORE_REPLICA_ACK_TIMEOUT_MS,
        }),
        ConfigurationModule.forRoot(environment),
        SigningKeysModule.forRoot(environment, logger),
        BotsModule.forRoot(bots),
        OAuthModule,
        OpenIdModule,
        ManagedIdentityModule,
        BotTokensModule,
        BotAuthModule,
        DeliveryModule,
        ConversationsModule,
        AiServicesModule.forRoot(aiServices, environment),
        UserTokensModule.forRoot(environment, bots),
      ],
      providers: [
        ConnectorGatewayExceptionFilter,
        { provide: APP_FILTER, useClass: ConnectorGatewayExceptionFilter },
      ],
    };
  }
}
