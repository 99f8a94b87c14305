import { randomUUID } from 'node:crypto';
import { type RateLimitBackend, RateLimitStore } from '../src';

/** The int tier's services give every run a Redis (jest.services.js). */
const redisUrl = process.env['REDIS_URL'] ?? '';

function describeContract(name: string, backend: () => RateLimitBackend, shared: boolean): void {
  describe(name, () => {
    const prefix = `fieldops:test:${randomUUID()}:`;
    let store: RateLimitStore;
    let peer: RateLimitStore;
    beforeEach(() => {
      store = new RateLimitStore(backend(), prefix);
      peer = shared ? new RateLimitStore(backend(), prefix) : store;
    });
    afterEach(async () => {
      await store.close();
      if (peer !== store) await peer.close();
    });

    it('allows the rule`s points per window, then refuses with the seconds left', async () => {
      const limit = store.limit({ name: 'login', points: 3, windowSeconds: 60 });
      const key = `k-${randomUUID()}`;
      expect(await limit.check(key)).toEqual({ allowed: true, remaining: 3, retryAfterSeconds: 0 });
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await limit.consume(key)).allowed).toBe(true);
      expect((await limit.check(key)).allowed).toBe(false);
      const refused = await limit.consume(key);
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThan(55);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect((await limit.consume(`k-${randomUUID()}`)).allowed).toBe(true);
    });

    it('counts several points at once (bytes), and every instance counts together', async () => {
      const limit = store.limit({ name: 'bytes', points: 1000, windowSeconds: 60 });
      const other = peer.limit({ name: 'bytes', points: 1000, windowSeconds: 60 });
      const key = `k-${randomUUID()}`;
      expect(await limit.consume(key, 600)).toMatchObject({ allowed: true, remaining: 400 });
      expect((await other.consume(key, 600)).allowed).toBe(false);
    });

    it('reset forgets a key; limits of other names are separate; 0 points disables', async () => {
      const limit = store.limit({ name: 'a', points: 1, windowSeconds: 60 });
      const key = `k-${randomUUID()}`;
      await limit.consume(key);
      expect((await limit.consume(key)).allowed).toBe(false);
      expect((await store.limit({ name: 'b', points: 1, windowSeconds: 60 }).consume(key)).allowed).toBe(
        true,
      );
      await limit.reset(key);
      expect((await limit.consume(key)).allowed).toBe(true);
      await limit.refund(key);
      expect((await limit.consume(key)).allowed).toBe(true);
      expect((await limit.consume(key)).allowed).toBe(false);
      const off = store.limit({ name: 'off', points: 0, windowSeconds: 60 });
      for (let attempt = 0; attempt < 5; attempt += 1)
        expect((await off.consume(key, 1e9)).allowed).toBe(true);
    });

    it('takes any text as a key (long, unicode, spaces)', async () => {
      const limit = store.limit({ name: 'text', points: 1, windowSeconds: 60 });
      const key = `${'名'.repeat(300)} ${randomUUID()}`;
      expect((await limit.consume(key)).allowed).toBe(true);
      expect((await limit.consume(key)).allowed).toBe(false);
    });
  });
}

describeContract('RateLimitStore in memory', () => ({ kind: 'memory' }), false);

describe('RateLimitStore on Redis', () => {
  describeContract('contract', () => ({ kind: 'redis', redisUrl: redisUrl ?? '' }), true);
});
