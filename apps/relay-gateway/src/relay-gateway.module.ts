import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { type ActivityBus, ActivityBusModule } from '@fieldops/bus';
import {
  ConversationLog,
  type ConversationStore,
  ConversationStoreModule,
} from '@fieldops/conversation-store';
import { type Logger, PlatformModule } from '@fieldops/platform';
import { type PlatformConfig } from '@fieldops/platform-config';
import { RateLimitStore, RateLimitStoreModule } from '@fieldops/rate-limits';
import { ActivitiesController } from './activities/activities.controller';
import { ActivitiesService } from './activities/activities.service';
import { RelayGatewayEnvironment } from './config/relay-gateway.environment';
import { ConversationFactsCache } from './conversations/conversation-facts.cache';
import { ConversationMembershipService } from './conversations/conversation-membership.service';
import { ConversationsController } from './conversations/conversations.controller';
import { ConversationsService } from './conversations/conversations.service';
import { BOT_DELIVERY, type BotDelivery } from './delivery/bot-delivery';
import { BotServiceUrlProbe } from './delivery/bot-service-url.probe';
import { ConnectorBotDelivery, selectBotDelivery } from './delivery/connector-bot-delivery';
import { HttpBotDelivery } from './delivery/http-bot-delivery';
import { DirectLineAuthGuard } from './direct-line/direct-line-auth.guard';
import { RelayExceptionFilter } from './relay-exception.filter';
import { DirectLineV1Controller } from './direct-line-v1/direct-line-v1.controller';
import { PLATFORM_CONFIG } from './direct-line/relay-settings';
import { TokenIssuer } from './direct-line/token-issuer';
import { SessionController } from './session/session.controller';
import { StreamService } from './stream/stream.service';
import { TokensController } from './tokens/tokens.controller';
import { TokensService } from './tokens/tokens.service';
import { UploadsController } from './uploads/uploads.controller';
import { UploadQuota } from './uploads/upload-quota.service';
import { UploadsService } from './uploads/uploads.service';

export interface RelayGatewayModuleOptions {
  environment: RelayGatewayEnvironment;
  logger: Logger;
  platformConfig: PlatformConfig;
  /** A bus owned by the caller (the all-in-one process shares one between apps). */
  bus?: ActivityBus;
  /** A store owned by the caller (shared between apps in one process). */
  store?: ConversationStore;
  /** Replaces the direct HTTP delivery to the bot's messaging endpoint. */
  botDelivery?: BotDelivery;
}

class DeliveryLifecycle implements OnApplicationShutdown {
  constructor(readonly delivery: BotDelivery) {}
  onApplicationShutdown(): void {
    if (this.delivery instanceof HttpBotDelivery || this.delivery instanceof ConnectorBotDelivery)
      this.delivery.close();
  }
}

@Module({})
export class RelayGatewayModule {
  static forRoot(options: RelayGatewayModuleOptions): DynamicModule {
    const { environment, logger } = options;
    return {
      module: RelayGatewayModule,
      imports: [
        PlatformModule.forRoot({ service: 'relay-gateway', logger }),
        ActivityBusModule.forRoot({
          bus: options.bus,
          redisUrl: environment.REDIS_URL,
          channelPrefix: environment.BUS_CHANNEL_PREFIX,
          logger: logger.child({ component: 'bus' }),
        }),
        ConversationStoreModule.forRoot({
          store: options.store,
          redisUrl: environment.REDIS_URL,
          keyPrefix: environment.STORE_KEY_PREFIX,
          retentionSeconds: environment.CONVERSATION_RETENTION_SECONDS,
          maxUploadBytes: environment.STORE_MAX_UPLOAD_BYTES,
          replicaAcks: environment.STORE_REPLICA_ACKS,
          replicaAckTimeoutMs: environment.STORE_REPLICA_ACK_TIMEOUT_MS,
        }),
        // Quotas and limits counted across instances: in Redis when the conversation state is, else in memory.
        RateLimitStoreModule.forRoot({
          useFactory: () =>
            new RateLimitStore(
              environment.REDIS_URL ? { kind: 'redis', redisUrl: environment.REDIS_URL } : { kind: 'memory' },
              `${environment.STORE_KEY_PREFIX}rate:`,
            ),
        }),
      ],
      controllers: [
        TokensController,
        ConversationsController,
        ActivitiesController,
        UploadsController,
        SessionController,
        DirectLineV1Controller,
      ],
      providers: [
        { provide: RelayGatewayEnvironment, useValue: environment },
        { provide: PLATFORM_CONFIG, useValue: options.platformConfig },
        { provide: APP_FILTER, useClass: RelayExceptionFilter },
        RelayExceptionFilter,
        {
          provide: DeliveryLifecycle,
          useValue: new DeliveryLifecycle(options.botDelivery ?? selectBotDelivery(environment)),
        },
        {
          provide: BOT_DELIVERY,
          useFactory: (lifecycle: DeliveryLifecycle) => lifecycle.delivery,
          inject: [DeliveryLifecycle],
        },
        BotServiceUrlProbe,
        TokenIssuer,
        DirectLineAuthGuard,
        ConversationLog,
        ConversationMembershipService,
        { provide: ConversationFactsCache, useFactory: () => new ConversationFactsCache() },
        ConversationsService,
        TokensService,
        ActivitiesService,
        StreamService,
        UploadQuota,
        UploadsService,
      ],
    };
  }
}
