import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ACTIVITY_BUS, type ActivityBus } from './activity-bus';
import { ActivityBusModule } from './activity-bus.module';
import { InProcessActivityBus } from './in-process-activity-bus';
import { RedisActivityBus } from './redis-activity-bus';

@Injectable()
class BusConsumer {
  constructor(@Inject(ACTIVITY_BUS) readonly bus: ActivityBus) {}
}

/** A module that does not import ActivityBusModule itself: the bus must be global. */
@Module({ providers: [BusConsumer], exports: [BusConsumer] })
class FeatureModule {}

class BusSettings {
  readonly redisUrl = 'redis://127.0.0.1:1';
}

@Module({ providers: [BusSettings], exports: [BusSettings] })
class SettingsModule {}

async function bootWith(busModule: ReturnType<typeof ActivityBusModule.forRoot>) {
  @Module({ imports: [busModule, FeatureModule] })
  class AppModule {}
  return NestFactory.createApplicationContext(AppModule, { logger: false });
}

describe('ActivityBusModule', () => {
  it('provides a caller-owned bus globally and leaves it open on shutdown', async () => {
    const shared = new InProcessActivityBus();
    const app = await bootWith(ActivityBusModule.forRoot({ bus: shared }));

    expect(app.get(ACTIVITY_BUS)).toBe(shared);
    expect(app.get(BusConsumer).bus).toBe(shared);
    await app.close();

    await expect(shared.checkReady()).resolves.toBeUndefined();
    await shared.close();
  });

  it('creates an in-process bus without a Redis URL and closes it on shutdown', async () => {
    const app = await bootWith(ActivityBusModule.forRoot());
    const bus = app.get<ActivityBus>(ACTIVITY_BUS);

    expect(bus).toBeInstanceOf(InProcessActivityBus);
    await app.close();
    await expect(bus.checkReady()).rejects.toThrow(/closed/);
  });

  it('builds the options asynchronously from injected providers', async () => {
    const app = await bootWith(
      ActivityBusModule.forRootAsync({
        imports: [SettingsModule],
        inject: [BusSettings],
        useFactory: (settings: BusSettings) =>
          Promise.resolve({ redisUrl: settings.redisUrl, channelPrefix: 'x:' }),
      }),
    );
    const bus = app.get<ActivityBus>(ACTIVITY_BUS);

    expect(bus).toBeInstanceOf(RedisActivityBus);
    expect((bus as RedisActivityBus).channelPrefix).toBe('x:');
    await app.close();
    await expect(bus.checkReady()).rejects.toThrow(/closed/);
  });
});
