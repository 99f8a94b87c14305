import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RateLimitStore } from './rate-limit-store';

/**
 * The rate limits' rules on the in-process store (the Redis and PostgreSQL stores count the same way:
 * `test/rate-limit-store.int-spec.ts`): a fixed window of `points` per key, refused beyond it with the seconds to
 * wait; `check` reads without counting; refunds and resets give points back; 0 points disables a limit.
 */
describe('rate limits (in memory)', () => {
  const store = new RateLimitStore({ kind: 'memory' }, 'spec:');
  const rule = { name: 'login', points: 3, windowSeconds: 60 };

  it('allows `points` per window, then refuses with the seconds left in the window', async () => {
    const limit = store.limit({ ...rule, name: 'count' });
    const states = [];
    for (let attempt = 0; attempt < 4; attempt++) states.push(await limit.consume('ivy'));
    expect(states.map((state) => [state.allowed, state.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(states.slice(0, 3).every((state) => state.retryAfterSeconds === 0)).toBe(true);
    expect(states[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(states[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Other keys have their own counts.
    expect(await limit.consume('otto')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it('counts several points at once', async () => {
    const limit = store.limit({ ...rule, name: 'bytes' });
    expect(await limit.consume('ivy', 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limit.consume('ivy', 1)).toMatchObject({ allowed: false });
  });

  it('check reads without counting, and refuses once the limit is reached (the next point would be over)', async () => {
    const limit = store.limit({ ...rule, name: 'check' });
    expect(await limit.check('ivy')).toEqual({ allowed: true, remaining: 3, retryAfterSeconds: 0 });
    await limit.consume('ivy', 2);
    expect(await limit.check('ivy')).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect(await limit.check('ivy')).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    await limit.consume('ivy');
    const reached = await limit.check('ivy');
    expect([reached.allowed, reached.remaining]).toEqual([false, 0]);
    expect(reached.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('a refund gives points back; a reset forgets the key', async () => {
    const limit = store.limit({ ...rule, name: 'refund' });
    for (let attempt = 0; attempt < 3; attempt++) await limit.consume('ivy');
    await limit.refund('ivy');
    expect(await limit.consume('ivy')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limit.consume('ivy')).toMatchObject({ allowed: false });
    await limit.reset('ivy');
    expect(await limit.consume('ivy')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it('limits of one rule share their counters; rules of other names or sizes do not', async () => {
    const shared = { ...rule, name: 'shared' };
    await store.limit(shared).consume('ivy', 3);
    expect(await store.limit(shared).consume('ivy')).toMatchObject({ allowed: false });
    expect(await store.limit({ ...shared, name: 'other' }).consume('ivy')).toMatchObject({ allowed: true });
    expect(await store.limit({ ...shared, points: 5 }).consume('ivy')).toMatchObject({ allowed: true });
  });

  it('takes any text as a key: long or unusual keys are hashed, and stay distinct', async () => {
    const limit = store.limit({ ...rule, points: 1, name: 'keys' });
    const long = 'x'.repeat(500);
    expect(await limit.consume(long)).toMatchObject({ allowed: true });
    expect(await limit.consume(long)).toMatchObject({ allowed: false });
    expect(await limit.consume(`${long}y`)).toMatchObject({ allowed: true });
    expect(await limit.consume('电话 号码 ✓')).toMatchObject({ allowed: true });
    expect(await limit.consume('电话 号码 ✗')).toMatchObject({ allowed: true });
  });

  it('0 points disables a limit: everything is allowed, nothing is counted', async () => {
    const limit = store.limit({ ...rule, points: 0, name: 'off' });
    for (let attempt = 0; attempt < 5; attempt++)
      expect(await limit.consume('ivy', 10)).toEqual({
        allowed: true,
        remaining: Number.POSITIVE_INFINITY,
        retryAfterSeconds: 0,
      });
    expect(await limit.check('ivy')).toMatchObject({ allowed: true });
    await expect(limit.refund('ivy')).resolves.toBeUndefined();
    await expect(limit.reset('ivy')).resolves.toBeUndefined();
  });

  it('a memory store has no connection to close', async () => {
    expect(store.kind).toBe('memory');
    await expect(store.close()).resolves.toBeUndefined();
  });
});

/** The unit specs above are the package's: a unit run that finds none has lost them, and fails. */
describe('@fieldops/rate-limits test scripts', () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it.each(['test', 'test:unit'])('%s fails when it finds no tests', (script) => {
    expect(manifest.scripts[script]).toMatch(/\bjest\b/);
    expect(manifest.scripts[script]).not.toContain('--passWithNoTests');
  });
});
