import { RedisResourceKeyStore, type ResourceKeyStore } from './resource-key-store';

/** The Redis store, on REDIS_URL (the int tier's services), against resource-key-store.spec.ts's contract. */
const redisUrl = process.env.REDIS_URL ?? '';
const stores: Array<[string, () => ResourceKeyStore]> = [
  ['redis', () => new RedisResourceKeyStore(redisUrl, `test:ai-key-store:${Date.now()}:`)],
];

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
