import { InProcessResourceKeyStore, newResourceKey, type ResourceKeyStore } from './resource-key-store';

/** The in-process store; the Redis store runs the same contract in resource-key-store.int-spec.ts. */
const stores: Array<[string, () => ResourceKeyStore]> = [
  ['in-process', () => new InProcessResourceKeyStore()],
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

describe('newResourceKey', () => {
  it('makes 32 hexadecimal digits, different each time', () => {
    const [a, b] = [newResourceKey(), newResourceKey()];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
