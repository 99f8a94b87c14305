import { InProcessResourceKeyStore, newResourceKey } from './resource-key-store';
import { describeResourceKeyStore } from './resource-key-store.contract-spec';

/** The in-process store; the Redis store runs the same contract in resource-key-store.int-spec.ts. */
describeResourceKeyStore('in-process', () => new InProcessResourceKeyStore());

describe('newResourceKey', () => {
  it('makes 32 hexadecimal digits, different each time', () => {
    const [a, b] = [newResourceKey(), newResourceKey()];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
