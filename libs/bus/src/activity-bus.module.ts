import {
  type DynamicModule,
  type FactoryProvider,
  Module,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { ReadinessRegistry } from '@fieldops/platform';
import { ACTIVITY_BUS, type ActivityBus } from './activity-bus';
import { type ActivityBusLogger } from './activity-bus-logger';
import { createActivityBus } from './create-activity-bus';

export interface ActivityBusModuleOptions {
  /** An existing bus to provide. It stays owned by the caller and is not closed on application shutdown. */
  bus?: ActivityBus;
  /** Without `bus`: use Redis at this URL; without either, an in-process bus is created. */
  redisUrl?: string;
  channelPrefix?: string;
  logger?: ActivityBusLogger;
}

export interface ActivityBusModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: FactoryProvider<ActivityBusModuleOptions | Promise<ActivityBusModuleOptions>>['useFactory'];
}

const ACTIVITY_BUS_MODULE_OPTIONS = Symbol('ACTIVITY_BUS_MODULE_OPTIONS');
const ACTIVITY_BUS_LIFECYCLE = Symbol('ACTIVITY_BUS_LIFECYCLE');
const ACTIVITY_BUS_READINESS = Symbol('ACTIVITY_BUS_READINESS');

/** Holds the module's bus and closes it on shutdown when the module created it. */
class ActivityBusLifecycle implements OnApplicationShutdown {
  constructor(
    readonly bus: ActivityBus,
    private readonly ownsBus: boolean,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ownsBus) await this.bus.close();
  }
}

/**
 * Provides {@link ACTIVITY_BUS} application-wide, and — in an app with the platform's readiness
 * registry — adds the bus to `/readyz` (as `redis` or `bus`).
 */
@Module({})
export class ActivityBusModule {
  static forRoot(options: ActivityBusModuleOptions = {}): DynamicModule {
    return ActivityBusModule.build([], { provide: ACTIVITY_BUS_MODULE_OPTIONS, useValue: options });
  }

  static forRootAsync(options: ActivityBusModuleAsyncOptions): DynamicModule {
    return ActivityBusModule.build(options.imports ?? [], {
      provide: ACTIVITY_BUS_MODULE_OPTIONS,
      useFactory: options.useFactory,
      inject: options.inject ?? [],
    });
  }

  private static build(
    imports: NonNullable<ModuleMetadata['imports']>,
    optionsProvider: Provider,
  ): DynamicModule {
    return {
      module: ActivityBusModule,
      global: true,
      imports,
      providers: [
        optionsProvider,
        {
          provide: ACTIVITY_BUS_LIFECYCLE,
          useFactory: (options: ActivityBusModuleOptions) =>
            options.bus
              ? new ActivityBusLifecycle(options.bus, false)
              : new ActivityBusLifecycle(createActivityBus(options), true),
          inject: [ACTIVITY_BUS_MODULE_OPTIONS],
        },
        {
          provide: ACTIVITY_BUS,
          useFactory: (lifecycle: ActivityBusLifecycle) => lifecycle.bus,
          inject: [ACTIVITY_BUS_LIFECYCLE],
        },
        {
          provide: ACTIVITY_BUS_READINESS,
          useFactory: (bus: ActivityBus, readiness?: ReadinessRegistry) =>
            readiness?.register(bus.kind === 'redis' ? 'redis' : 'bus', () => bus.checkReady()),
          inject: [ACTIVITY_BUS, { token: ReadinessRegistry, optional: true }],
        },
      ],
      exports: [ACTIVITY_BUS],
    };
  }
}
