import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { RateLimitStore } from './rate-limit-store';

export interface RateLimitStoreModuleOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's factory signature
  useFactory: (...dependencies: any[]) => RateLimitStore;
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
}

const STORE_LIFECYCLE = Symbol('RATE_LIMIT_STORE_LIFECYCLE');

class StoreLifecycle implements OnApplicationShutdown {
  constructor(readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** Provides one {@link RateLimitStore} application-wide (every limit and quota of the app) and closes it on shutdown. */
@Module({})
export class RateLimitStoreModule {
  static forRoot(options: RateLimitStoreModuleOptions): DynamicModule {
    return {
      module: RateLimitStoreModule,
      global: true,
      providers: [
        {
          provide: STORE_LIFECYCLE,
          useFactory: (...dependencies: unknown[]) => new StoreLifecycle(options.useFactory(...dependencies)),
          inject: options.inject ?? [],
        },
        {
          provide: RateLimitStore,
          useFactory: (lifecycle: StoreLifecycle) => lifecycle.store,
          inject: [STORE_LIFECYCLE],
        },
      ],
      exports: [RateLimitStore],
    };
  }
}
