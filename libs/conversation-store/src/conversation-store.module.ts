import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry } from '@fieldops/platform';
import { CONVERSATION_STORE, type ConversationStore } from './conversation-store';
import { createConversationStore, type CreateConversationStoreOptions } from './create-conversation-store';

export interface ConversationStoreModuleOptions extends CreateConversationStoreOptions {
  /** A store owned by the caller (shared between apps in one process); not closed on shutdown. */
  store?: ConversationStore;
}

const STORE_LIFECYCLE = Symbol('CONVERSATION_STORE_LIFECYCLE');
const STORE_READINESS = Symbol('CONVERSATION_STORE_READINESS');

class StoreLifecycle implements OnApplicationShutdown {
  constructor(
    readonly store: ConversationStore,
    private readonly ownsStore: boolean,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ownsStore) await this.store.close();
  }
}

/** Provides {@link CONVERSATION_STORE} application-wide and adds it to `/readyz` as `conversation-store`. */
@Module({})
export class ConversationStoreModule {
  static forRoot(options: ConversationStoreModuleOptions = {}): DynamicModule {
    return {
      module: ConversationStoreModule,
      global: true,
      providers: [
        {
          provide: STORE_LIFECYCLE,
          useFactory: () =>
            options.store
              ? new StoreLifecycle(options.store, false)
              : new StoreLifecycle(createConversationStore(options), true),
        },
        {
          provide: CONVERSATION_STORE,
          useFactory: (lifecycle: StoreLifecycle) => lifecycle.store,
          inject: [STORE_LIFECYCLE],
        },
        {
          provide: STORE_READINESS,
          useFactory: (store: ConversationStore, readiness?: ReadinessRegistry) =>
            readiness?.register('conversation-store', () => store.checkReady()),
          inject: [CONVERSATION_STORE, { token: ReadinessRegistry, optional: true }],
        },
      ],
      exports: [CONVERSATION_STORE],
    };
  }
}
