import { InProcessUserTokenStore } from './user-token-store';

describe('InProcessUserTokenStore', () => {
  it('keeps records until their time to live, and take() gives a record once', async () => {
    let now = 1_000_000;
    const store = new InProcessUserTokenStore(() => now);
    await store.set('kept', 'v1');
    await store.set('short', 'v2', 10);
    expect(await store.get('short')).toBe('v2');
    now += 10_000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('kept')).toBe('v1');
    expect(await store.take('kept')).toBe('v1');
    expect(await store.take('kept')).toBeUndefined();
    await store.set('gone', 'v3');
    await store.delete('gone');
    expect(await store.get('gone')).toBeUndefined();
  });
});
