import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTimestamp, SqlParameters } from '../database/sql';
import { notFound } from '../drf/exceptions';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';

/** The AuditEntry representation of alias `e`. */
const AUDIT_JSON = `json_build_object('id', e."id", 'resource', e."resource", 'resource_id', e."resource_id", 'event', e."event", 'actor', e."actor_id", 'actor_username', e."actor", 'at', ${isoTimestamp('e."at"')}, 'changed', to_json(e."changed"), 'before', e."before", 'after', e."after")`;

export interface AuditFilters {
  resource?: string;
  resource_id?: number;
  actor?: number;
  event?: string;
  since?: string;
  until?: string;
}

/**
 * The page statement: count and the page's entries in one round trip, newest first (DRF's page-number envelope,
 * unchanged). The count of the whole trail comes from its tally, a filtered count from the matching rows.
 */
export function auditPageSql(filters: AuditFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const conditions: string[] = [];
  if (filters.resource !== undefined) conditions.push(`e."resource" = ${parameters.add(filters.resource)}`);
  if (filters.resource_id !== undefined)
    conditions.push(`e."resource_id" = ${parameters.add(filters.resource_id)}`);
  if (filters.actor !== undefined) conditions.push(`e."actor_id" = ${parameters.add(filters.actor)}`);
  if (filters.event !== undefined) conditions.push(`e."event" = ${parameters.add(filters.event)}`);
  if (filters.since !== undefined) conditions.push(`e."at" >= ${parameters.add(filters.since)}::timestamptz`);
  if (filters.until !== undefined) conditions.push(`e."at" < ${parameters.add(filters.until)}::timestamptz`);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // Unfiltered, the count is the tally the triggers keep (migration `1732929000000-tally-audit-entries`): exact, and
  // read from a few rows instead of the whole trail.
  const count = conditions.length
    ? `SELECT count(*) FROM "audit_entries" e ${where}`
    : `SELECT sum(t."entries") FROM "audit_entry_tally" t`;
  const sql = `SELECT COALESCE((${count}), 0)::int AS "count",
    COALESCE((SELECT json_agg(${AUDIT_JSON} ORDER BY e."id" DESC) FROM (SELECT * FROM "audit_entries" e ${where} ORDER BY e."id" DESC LIMIT ${Math.trunc(limit)} OFFSET ${parameters.add(offset)}) e), '[]'::json) AS "results"`;
  return { sql, parameters: parameters.values };
}

/**
 * Reading the audit trail (`/api/audit/`). The entries are written by the database's triggers in the transaction of
 * each change (who: `audit-actor.ts`); nothing here or anywhere in the API changes or removes one.
 */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  page(filters: AuditFilters, request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = auditPageSql(filters, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  async findOne(id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT ${AUDIT_JSON} AS "body" FROM "audit_entries" e WHERE e."id" = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }
}
