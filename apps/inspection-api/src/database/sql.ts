import { createHash } from 'node:crypto';
import { type Pool } from 'pg';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { type ExistingIds } from '../drf/serializer';

/** An ISO 8601 UTC timestamp with microseconds, as DRF renders datetimes (`…T01:20:54.215536Z`). */
export const isoTimestamp = (column: string): string =>
  `replace(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '.000000Z', 'Z')`;

/** The tables a primary-key field may refer to, and which of their rows a new write may refer to. */
const RELATED_TABLES: Record<string, string> = {
  devices: '"archived_at" IS NULL',
  check_items: '"archived_at" IS NULL',
  check_plans: '"archived_at" IS NULL',
  check_records: 'TRUE',
  users: '"is_active"',
  teams: 'TRUE',
};

/**
 * Which of `ids` exist in `table` and may be referred to (one statement): an archived device, item or plan is no
 * longer a valid reference for a new write, as if it were deleted, nor is an inactive user.
 */
export function existingIdsIn(db: DataSource | EntityManager): ExistingIds {
  return async (table, ids) => {
    const usable = RELATED_TABLES[table];
    if (usable === undefined) throw new Error(`unknown related table ${table}`);
    const rows: Array<{ id: number }> = await db.query(
      `SELECT "id" FROM "${table}" WHERE "id" = ANY($1::int[]) AND ${usable}`,
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  };
}

/** The PostgreSQL SQLSTATE of a failed query (23505 unique violation, 23503 foreign key violation …). */
export function sqlState(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const code = (error.driverError as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Collects positional parameters for a statement built from optional filters. */
export class SqlParameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `%term%` for ILIKE with the pattern characters escaped. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Prepared statements' names by text (the texts come from a small fixed set). */
const statementNames = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement of the pooled connection (node-postgres keeps it per connection):
 * PostgreSQL parses and plans it once per connection instead of once per request, which for the hot list
 * statements costs as much as executing them. Only for statements whose text comes from a small fixed set (the
 * name is the text's hash), never for texts that vary with the input (each would stay prepared).
 */
export async function preparedQuery<T>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `fieldops_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  const result = await pool.query({ name, text: sql, values: parameters });
  return result.rows as T[];
}
