import { Client } from 'pg';
import { TestApi } from './support/test-api';

/**
 * The bearer check's lookup of the signed-in user. It is cached for 10 s per user (`users.service.ts`), so whether a
 * request pays it depends on the clock (a loaded machine takes longer than that between two requests), not on the
 * list: it is not counted.
 */
const PRINCIPAL_LOOKUP =
  'SELECT "is_active", "username", "role", "tokens_valid_after" FROM "users" WHERE "id" = $1';

/** Counts the SQL statements the app sends for a list (a hook on pg's Client#query, which TypeORM's pool uses). */
function countStatements(): { statements: string[]; restore: () => void } {
  const statements: string[] = [];
  const original = Client.prototype.query;
  const patched = function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string })?.text);
    if (text !== PRINCIPAL_LOOKUP) statements.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  Client.prototype.query = patched as typeof original;
  return { statements, restore: () => void (Client.prototype.query = original) };
}

describe('SQL statements per list request', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_queries');
    for (let index = 0; index < 30; index += 1) {
      const device = await api.createDevice();
      for (let item = 0; item < 3; item += 1)
        await api.post('/api/items/', { name: `I${item}`, device: device.id });
      const plan = (await api.post('/api/plans/', { name: 'P', devices: [device.id], frequency: 'daily' }))
        .body as { id: number };
      // A failed check: it opens a corrective action too (30 actions, each with its transitions).
      await api.post('/api/records/', { status: 'fail', device: device.id, plan: plan.id });
    }
  }, 180_000); // 180 requests of set-up: room for a loaded 2-core machine
  afterAll(() => api?.close());

  async function statementsFor(path: string): Promise<number> {
    const counter = countStatements();
    try {
      const response = await api.get(path);
      expect(response.status).toBe(200);
    } finally {
      counter.restore();
    }
    return counter.statements.length;
  }

  it.each(['/api/devices/', '/api/plans/', '/api/records/', '/api/items/', '/api/actions/'])(
    '%s issues the same small number of statements for 1 or 30 results',
    async (path) => {
      const separator = path.includes('?') ? '&' : '?';
      const one = await statementsFor(`${path}${separator}page_size=1`);
      const many = await statementsFor(`${path}${separator}page_size=30`);
      expect(one).toBeGreaterThan(0);
      expect(many).toBe(one);
      expect(many).toBeLessThanOrEqual(2);
    },
  );

  it.each(['/api/due/', '/api/due/summary/', '/api/statistics/records/?interval=week'])(
    '%s is one statement whatever the data',
    async (path) => {
      expect(await statementsFor(path)).toBe(1);
    },
  );

  it('a device detail is one statement regardless of its items', async () => {
    expect(await statementsFor('/api/devices/1/')).toBeLessThanOrEqual(2);
  });
});
