import { type ResourceKeyStore } from './resource-key-store';

/**
 * What every ResourceKeyStore promises; resource-key-store.spec.ts runs it on the in-process store and
 * resource-key-store.int-spec.ts on Redis.
 */
export function describeResourceKeyStore(name: string, create: () => ResourceKeyStore): void {
  describe(`${name} resource key store`, () => {
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
}
