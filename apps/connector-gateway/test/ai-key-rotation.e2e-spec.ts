import { AiCredentialProvider, TranslatorClient } from '@fieldops/ai-credentials';
import { runAiKeysCli } from '../src/ai-services/ai-keys.cli';
import { type GatewayFixture, startGatewayFixture } from './support/gateway';
import { GLOBAL_TRANSLATOR, rawRequest, testAiServices } from './support/ai-services';

const INTERNAL_KEY = 'internal-key-for-ai-key-rotation-tests-0001';
const RESOURCE = GLOBAL_TRANSLATOR.name;

/**
 * Key rotation: each key regenerated on its own while requests with the other flow. With REDIS_URL two gateway
 * instances share the key store, and the load goes to the instance that did not regenerate.
 */
describe('AI resource keys: regeneration without downtime', () => {
  let fixtures: GatewayFixture[];

  beforeAll(async () => {
    const extra = { CONNECTOR_INTERNAL_KEY: INTERNAL_KEY, STORE_KEY_PREFIX: `test:ai-keys:${Date.now()}:` };
    const first = await startGatewayFixture(extra, testAiServices());
    fixtures = [first];
    if (process.env.REDIS_URL) fixtures.push(await startGatewayFixture(extra, testAiServices()));
  });
  afterAll(() => Promise.all(fixtures.map((fixture) => fixture.gateway.close())));

  const admin = () => fixtures[0].gateway.url;
  const served = () => fixtures[fixtures.length - 1].gateway.url;
  const translateWithKey = (key: string) =>
    rawRequest(served(), {
      path: '/translate?api-version=3.0&to=zh-Hans&from=en',
      headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': 'application/json' },
      body: '[{"Text":"ok"}]',
    });
  const keys = async () =>
    (await (
      await fetch(`${admin()}/internal/v1/ai-resources/${RESOURCE}/keys`, {
        headers: { Authorization: `Bearer ${INTERNAL_KEY}` },
      })
    ).json()) as { key1: string; key2: string };

  it('regenerating key 1 under load: zero failures with key 2, old key 1 refused, key 2 unchanged', async () => {
    const before = await keys();
    expect(before).toEqual({ key1: GLOBAL_TRANSLATOR.keys[0], key2: GLOBAL_TRANSLATOR.keys[1] });
    // The load runs until it has answers from before and after the regeneration: counted, not timed.
    let stop = false;
    const statuses: number[] = [];
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    const answered = (count: number) =>
      new Promise<void>((resolve) =>
        statuses.length >= count ? resolve() : waiters.push({ count, resolve }),
      );
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!stop) {
          statuses.push((await translateWithKey(before.key2)).status);
          for (const waiter of waiters.filter((one) => statuses.length >= one.count)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      }),
    );
    await Promise.race([answered(10), load]);
    const regenerated = await fetch(`${admin()}/internal/v1/ai-resources/${RESOURCE}/regenerateKey`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${INTERNAL_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ keyName: 'Key1' }),
    });
    const during = statuses.length;
    expect(regenerated.status).toBe(200);
    const after = (await regenerated.json()) as { key1: string; key2: string };
    await Promise.race([answered(during + 10), load]);
    stop = true;
    await load;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(after.key2).toBe(before.key2);
    expect(after.key1).toMatch(/^[0-9a-f]{32}$/);
    expect((await translateWithKey(before.key1)).status).toBe(401);
    expect((await translateWithKey(after.key1)).status).toBe(200);
    expect((await translateWithKey(after.key2)).status).toBe(200);
  });

  it('a client holding the old key 1 fails over to key 2 and keeps working', async () => {
    const provider = new AiCredentialProvider({ mode: { kind: 'key', keys: GLOBAL_TRANSLATOR.keys } });
    const client = new TranslatorClient({ endpoint: served(), credentials: provider });
    expect(await client.translate(['fail'], { to: 'zh-Hans', from: 'en' })).toEqual(['故障']);
    expect(provider.currentKey).toBe(GLOBAL_TRANSLATOR.keys[1]);
  });

  it('the ai-keys CLI lists and regenerates key 2 alone; bad input and unknown resources are refused', async () => {
    const lines: string[] = [];
    const context = {
      environment: { CONNECTOR_URL: admin(), CONNECTOR_INTERNAL_KEY: INTERNAL_KEY },
      print: (line: string) => lines.push(line),
    };
    const before = await keys();
    expect(await runAiKeysCli(['regenerate', RESOURCE, 'key2'], context)).toBe(0);
    const after = await keys();
    expect(after.key1).toBe(before.key1);
    expect(after.key2).not.toBe(before.key2);
    expect(lines).toEqual([`key1 ${after.key1}`, `key2 ${after.key2}`]);
    expect((await translateWithKey(before.key2)).status).toBe(401);
    expect(await runAiKeysCli(['list', RESOURCE], context)).toBe(0);
    expect(await runAiKeysCli(['regenerate', RESOURCE, 'key3'], context)).toBe(2);
    expect(await runAiKeysCli(['list', 'no-such-resource'], context)).toBe(1);
    expect(
      await runAiKeysCli(['list', RESOURCE], { ...context, environment: { CONNECTOR_URL: admin() } }),
    ).toBe(2);
    const unauthorized = await fetch(`${admin()}/internal/v1/ai-resources/${RESOURCE}/keys`);
    expect(unauthorized.status).toBe(401);
  });
});
