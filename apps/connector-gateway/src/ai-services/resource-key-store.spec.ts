import {
  InProcessResourceKeyStore,
  newResourceKey,
  RedisResourceKeyStore,
  type ResourceKeyStore,
} from './resource-key-store';

const redisUrl = process.env.REDIS_URL;

/** One contract for both stores; the Redis one runs when REDIS_URL is set (CI). */
const stores: Array<[string, () => ResourceKeyStore]> = [
  ['in-process', () => new InProcessResourceKeyStore()],
];
if (redisUrl)
  stores.push(['redis', () => new RedisResourceKeyStore(redisUrl, `test:ai-key-store:${Date.now()}:`)]);

describe.each(stores)('%s resource key store', (_name, create) => {
  it('keeps each regenerated key on its own, visible to every reader', async () => {
    const writer = create();
    try {
      await writer.checkReady();
      expect(await writer.regeneratedKeys()).toEqual(new Map());
      await writer.store('r1', 0, 'first');
      await writer.store('r1', 1, 'second');
      await writer.store('r1', 0, 'third');
      expect(await writer.regeneratedKeys()).toEqual(
        new Map([
          ['r1:0', 'third'],
          ['r1:1', 'second'],
        ]),
      );
    } finally {
      await writer.close();
    }
  });
});

describe('newResourceKey', () => {
  it('makes 32 hexadecimal digits, different each time', () => {
    const [a, b] = [newResourceKey(), newResourceKey()];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
