import { ReadinessRegistry } from './readiness.registry';

describe('ReadinessRegistry', () => {
  it('is ready when every check answers, and names what is down', async () => {
    const registry = new ReadinessRegistry();
    registry.register('database', () => Promise.resolve());
    expect(await registry.report()).toEqual({ ready: true, checks: { database: { status: 'up' } } });
    registry.register('redis', () => Promise.reject(new Error('connection refused')));
    expect(await registry.report()).toEqual({
      ready: false,
      checks: { database: { status: 'up' }, redis: { status: 'down', error: 'connection refused' } },
    });
  });

  it('shows an advisory check without letting it make the service unready', async () => {
    const registry = new ReadinessRegistry();
    registry.register('database', () => Promise.resolve());
    registry.registerAdvisory('peer', () => Promise.reject(new Error('peer is down')));
    expect(await registry.report()).toEqual({
      ready: true,
      checks: {
        database: { status: 'up' },
        peer: { status: 'down', error: 'peer is down', advisory: true },
      },
    });
    registry.markShuttingDown();
    expect((await registry.report()).ready).toBe(false);
  });
});
