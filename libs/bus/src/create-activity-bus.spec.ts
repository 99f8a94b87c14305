import { createActivityBus } from './create-activity-bus';
import { InProcessActivityBus } from './in-process-activity-bus';
import { RedisActivityBus } from './redis-activity-bus';

describe('createActivityBus', () => {
  it('creates the in-process bus without a Redis URL', async () => {
    for (const redisUrl of [undefined, '', '   ']) {
      const bus = createActivityBus({ redisUrl });
      expect(bus).toBeInstanceOf(InProcessActivityBus);
      expect(bus.kind).toBe('in-process');
      await bus.close();
    }
  });

  it('creates the Redis bus with the given channel prefix when a Redis URL is set', async () => {
    // Nothing listens on port 1; the bus is closed before it matters.
    const bus = createActivityBus({ redisUrl: 'redis://127.0.0.1:1', channelPrefix: 'custom:' });
    try {
      expect(bus).toBeInstanceOf(RedisActivityBus);
      expect(bus.kind).toBe('redis');
      expect((bus as RedisActivityBus).channelPrefix).toBe('custom:');
    } finally {
      await bus.close();
    }
  });
});
