import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { testDatabaseUrl } from '@fieldops/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { inspectionDataSourceOptions } from '../database/inspection-data-source';
import { actionStatisticsSql } from '../statistics/statistics.service';
import { actionOverdueSql } from '../actions/action-transitions';
import { SqlParameters } from '../database/sql';
import { auditPageSql } from './audit.service';

/**
 * The fast statements answer what the counting ones did: the unfiltered audit page's count from the tally against
 * count(*) over the trail, after commits, rollbacks, savepoints, bulk and concurrent inserts; the action statistics
 * from their grouped statement against the statement they replaced (kept here as the reference).
 */
let database: ScratchDatabase;
let dataSource: DataSource;

const query = <T>(sql: string, parameters: unknown[] = []) => dataSource.query<T[]>(sql, parameters);

async function unfilteredPage(
  limit = 3,
  offset = 0,
): Promise<{ count: number; results: Array<{ id: number }> }> {
  const { sql, parameters } = auditPageSql({}, limit, offset);
  const [row] = await query<{ count: number; results: Array<{ id: number }> }>(sql, parameters);
  return row;
}

async function trailCount(): Promise<number> {
  const [row] = await query<{ count: number }>(`SELECT count(*)::int AS "count" FROM "audit_entries"`);
  return row.count;
}

async function expectCountUnchanged(): Promise<number> {
  const exact = await trailCount();
  expect((await unfilteredPage()).count).toBe(exact);
  return exact;
}

beforeAll(async () => {
  database = await createScratchDatabase(testDatabaseUrl(), 'audit_tally');
  dataSource = new DataSource(inspectionDataSourceOptions(database.url, 4));
  await dataSource.initialize();
  await dataSource.runMigrations();
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('the audit trail tally (the unfiltered page count)', () => {
  it('counts the entries already in the trail when it is created', async () => {
    await query(
      `INSERT INTO "devices" ("name", "code") SELECT 'Pump ' || g, 'P-' || g FROM generate_series(1, 5) g`,
    );
    await dataSource.undoLastMigration(); // the index of the action statistics
    await dataSource.undoLastMigration(); // the tally
    await query(`UPDATE "devices" SET "location" = 'Hall A'`);
    expect(await trailCount()).toBe(10);
    await dataSource.runMigrations();
    expect(await expectCountUnchanged()).toBe(10);
  });

  it('follows commits, rolled-back transactions and savepoints, one statement or many', async () => {
    const before = await expectCountUnchanged();
    await query(
      `INSERT INTO "devices" ("name", "code") SELECT 'Valve ' || g, 'V-' || g FROM generate_series(1, 2000) g`,
    );
    expect(await expectCountUnchanged()).toBe(before + 2000);

    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO "devices" ("name", "code") VALUES ('Gone', 'G-1')`);
      await client.query('ROLLBACK');
      expect(await expectCountUnchanged()).toBe(before + 2000);

      await client.query('BEGIN');
      await client.query(`INSERT INTO "devices" ("name", "code") VALUES ('Kept', 'K-1')`);
      await client.query('SAVEPOINT half');
      await client.query(
        `INSERT INTO "devices" ("name", "code") VALUES ('Undone', 'U-1'), ('Undone', 'U-2')`,
      );
      await client.query('ROLLBACK TO SAVEPOINT half');
      await client.query(`UPDATE "devices" SET "group" = 'kept' WHERE "code" = 'K-1'`);
      // Not visible to others before the commit, and the commit adds exactly what it wrote.
      expect(await expectCountUnchanged()).toBe(before + 2000);
      await client.query('COMMIT');
      expect(await expectCountUnchanged()).toBe(before + 2002);

      // Checked immediately (SET CONSTRAINTS), then more entries in the same transaction.
      await client.query('BEGIN');
      await client.query(`INSERT INTO "devices" ("name", "code") VALUES ('Now', 'N-1')`);
      await client.query('SET CONSTRAINTS ALL IMMEDIATE');
      await client.query(`INSERT INTO "devices" ("name", "code") VALUES ('Later', 'N-2')`);
      await client.query('COMMIT');
      expect(await expectCountUnchanged()).toBe(before + 2004);
    } finally {
      await client.end();
    }
  });

  it('stays exact under concurrent writers, more of them than slots', async () => {
    const before = await expectCountUnchanged();
    const writers = Array.from({ length: 24 }, (_, writer) => writer);
    const clients = await Promise.all(
      writers.map(async () => {
        const client = new Client({ connectionString: database.url });
        await client.connect();
        return client;
      }),
    );
    try {
      // Every transaction holds its entries open until all have written, so all commit at once.
      await Promise.all(clients.map((client) => client.query('BEGIN')));
      await Promise.all(
        clients.map((client, writer) =>
          client.query(
            `INSERT INTO "devices" ("name", "code") SELECT 'C', 'C-' || $1::int || '-' || g FROM generate_series(1, 5) g`,
            [writer],
          ),
        ),
      );
      await Promise.all(clients.map((client) => client.query('COMMIT')));
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    expect(await expectCountUnchanged()).toBe(before + 24 * 5);
  });

  it('leaves the page itself and the filtered counts as they were', async () => {
    const count = await trailCount();
    const newest = await query<{ id: number }>(
      `SELECT "id" FROM "audit_entries" ORDER BY "id" DESC LIMIT 3 OFFSET 4`,
    );
    expect((await unfilteredPage(3, 4)).results.map((entry) => Number(entry.id))).toEqual(
      newest.map((entry) => Number(entry.id)),
    );
    const { sql, parameters } = auditPageSql({ event: 'updated' }, 1, 0);
    const [filtered] = await query<{ count: number }>(sql, parameters);
    const [exact] = await query<{ count: number }>(
      `SELECT count(*)::int AS "count" FROM "audit_entries" WHERE "event" = 'updated'`,
    );
    expect(filtered.count).toBe(exact.count);
    expect(filtered.count).toBeLessThan(count);
  });
});

/** The statement the grouped one replaced: every action's row, materialized, then counted twice. */
function previousActionStatisticsSql(today: string, device?: number, group?: string) {
  const parameters = new SqlParameters();
  const overdue = actionOverdueSql(parameters.add(today));
  const conditions: string[] = [];
  if (device !== undefined) conditions.push(`a."device_id" = ${parameters.add(device)}`);
  if (group !== undefined)
    conditions.push(
      `a."device_id" IN (SELECT d."id" FROM "devices" d WHERE d."group" = ${parameters.add(group)})`,
    );
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const counts = (status: string) => `(count(*) FILTER (WHERE a."status" = '${status}'))::int`;
  const sql = `WITH "filtered" AS MATERIALIZED (SELECT a.*, ${overdue} AS "is_overdue" FROM "actions" a ${where})
    SELECT (SELECT json_build_object('total', count(*)::int, 'open', ${counts('open')}, 'in_progress', ${counts('in_progress')},
        'done', ${counts('done')}, 'verified', ${counts('verified')}, 'cancelled', ${counts('cancelled')},
        'overdue', (count(*) FILTER (WHERE a."is_overdue"))::int) FROM "filtered" a) AS "totals",
      COALESCE((SELECT json_agg(json_build_object('assignee', l."assignee_id", 'assignee_username', u."username",
          'open', l."open", 'in_progress', l."in_progress", 'done', l."done", 'overdue', l."overdue")
          ORDER BY l."assignee_id" NULLS FIRST)
        FROM (SELECT a."assignee_id", ${counts('open')} AS "open", ${counts('in_progress')} AS "in_progress",
            ${counts('done')} AS "done", (count(*) FILTER (WHERE a."is_overdue"))::int AS "overdue"
          FROM "filtered" a WHERE a."status" IN ('open', 'in_progress', 'done') GROUP BY a."assignee_id") l
        LEFT JOIN "users" u ON u."id" = l."assignee_id"), '[]'::json) AS "assignees"`;
  return { sql, parameters: parameters.values };
}

describe('the action statistics from the grouped statement', () => {
  const answer = async (statement: { sql: string; parameters: unknown[] }) =>
    (await query<{ totals: object; assignees: unknown[] }>(statement.sql, statement.parameters))[0];

  it('answers as the statement it replaced, with and without filters, empty or not', async () => {
    await query(`UPDATE "devices" SET "group" = CASE WHEN "id" % 3 = 0 THEN 'pumps' ELSE 'valves' END`);
    expect(await answer(actionStatisticsSql('2026-03-01', {}))).toEqual(
      await answer(previousActionStatisticsSql('2026-03-01')),
    );
    await query(
      `INSERT INTO "users" ("username", "password", "role") SELECT 'user' || g, '', 'inspector' FROM generate_series(1, 4) g`,
    );
    // 1,500 actions: every status, assignees and none, due dates around "today", some without one.
    await query(`INSERT INTO "actions" ("title", "device_id", "assignee_id", "due_date", "status")
      SELECT 'Action ' || g, 1 + g % 40,
        (SELECT u."id" FROM "users" u WHERE u."username" = 'user' || (g / 7 % 5)),
        CASE WHEN g % 7 = 0 THEN NULL ELSE DATE '2026-03-01' + (g % 61 - 30) END,
        (ARRAY['open', 'in_progress', 'done', 'verified', 'cancelled'])[1 + g % 5]
      FROM generate_series(1, 1500) g`);
    await query(`VACUUM ANALYZE "actions"`);
    for (const today of ['2026-03-01', '2026-02-01', '2026-04-15']) {
      const now = await answer(actionStatisticsSql(today, {}));
      expect(now).toEqual(await answer(previousActionStatisticsSql(today)));
      expect(now.assignees.length).toBe(5);
    }
    expect(await answer(actionStatisticsSql('2026-03-01', { device: 3 }))).toEqual(
      await answer(previousActionStatisticsSql('2026-03-01', 3)),
    );
    expect(await answer(actionStatisticsSql('2026-03-01', { group: 'pumps' }))).toEqual(
      await answer(previousActionStatisticsSql('2026-03-01', undefined, 'pumps')),
    );
    expect(await answer(actionStatisticsSql('2026-03-01', { group: 'nobody' }))).toEqual(
      await answer(previousActionStatisticsSql('2026-03-01', undefined, 'nobody')),
    );
  });
});
