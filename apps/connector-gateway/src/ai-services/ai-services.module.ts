import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type AiServicesConfig } from '@fieldops/platform-config';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { InternalKeyGuard } from '../delivery/internal-key.guard';
import { AiAuthenticator } from './ai-authenticator.service';
import { AiResourceKeys } from './ai-resource-keys.service';
import { AiResourceKeysController } from './ai-resource-keys.controller';
import { AiResourceRegistry } from './ai-resource-registry';
import { AiTokenService } from './ai-token.service';
import {
  InProcessResourceKeyStore,
  RedisResourceKeyStore,
  RESOURCE_KEY_STORE,
  type ResourceKeyStore,
} from './resource-key-store';
import { StsController } from './sts.controller';
import { PhrasebookTranslationProvider } from './translation/phrasebook-translation.provider';
import { TRANSLATION_PROVIDER, type TranslationProvider } from './translation/translation-provider';
import { UpstreamTranslationProvider } from './translation/upstream-translation.provider';
import { TranslatorController } from './translator.controller';
import { TranslatorService } from './translator.service';

/** The configured translation provider. */
export function createTranslationProvider(config: AiServicesConfig, logger: Logger): TranslationProvider {
  const settings = config.translation;
  return settings.provider === 'upstream'
    ? new UpstreamTranslationProvider(settings, logger.child({ component: 'upstream-translator' }))
    : new PhrasebookTranslationProvider(settings.phrases);
}

class KeyStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(RESOURCE_KEY_STORE) private readonly store: ResourceKeyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * AI-services credentials: key → token exchange (`/sts/v1.0/issueToken`), the Translator v3 translate operation
 * with every authentication mode, and key regeneration (internal API) over a key store every instance shares.
 */
@Module({})
export class AiServicesModule {
  static forRoot(config: AiServicesConfig, environment: ConnectorGatewayEnvironment): DynamicModule {
    return {
      module: AiServicesModule,
      controllers: [StsController, TranslatorController, AiResourceKeysController],
      providers: [
        { provide: AiResourceRegistry, useValue: new AiResourceRegistry(config) },
        {
          provide: RESOURCE_KEY_STORE,
          // Same Redis as the bus and the store, whose readiness checks already cover it.
          useFactory: (): ResourceKeyStore => {
            const redisUrl = environment.REDIS_URL?.trim();
            return redisUrl
              ? new RedisResourceKeyStore(redisUrl, environment.STORE_KEY_PREFIX)
              : new InProcessResourceKeyStore();
          },
        },
        KeyStoreLifecycle,
        {
          provide: TRANSLATION_PROVIDER,
          useFactory: (logger: Logger) => createTranslationProvider(config, logger),
          inject: [LOGGER],
        },
        AiResourceKeys,
        AiTokenService,
        AiAuthenticator,
        TranslatorService,
        InternalKeyGuard,
      ],
    };
  }
}
