import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { audited, type AuditActor } from '../audit/audit-actor';
import { type ResourceRequest } from '../drf/resource-routes';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { RawJson } from '../drf/json-renderer';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { containsPattern, existingIdsIn, preparedQuery, SqlParameters, sqlState } from '../database/sql';
import { DEVICE_FIELDS } from './dto/device.dto';
import { DEVICE_SCHEMA } from './device.schema';
import { schemaJsonText, type WritableValues } from '../drf/resource-schema';
import { DeviceEntity } from './device.entity';
import { EventOutbox } from '../events/event-outbox';

/**
 * The Device representation of alias `d` as compact JSON text (`DEVICE_SCHEMA`'s fields, nested items included):
 * PostgreSQL renders the bytes and the hot list path sends them without parsing and re-serialising them. Built by
 * concatenation rather than `row_to_json` of a row with a `::json` column: no JSON re-parse of the items and no
 * per-column type lookups, the same bytes. An archived device also shows its `archived_at`.
 */
const deviceText = (archived: boolean): string =>
  schemaJsonText(DEVICE_SCHEMA, 'd', archived ? 'archived' : 'in-use');
const DEVICE_TEXT = deviceText(false);

export interface DeviceFilters {
  group?: string;
  search?: string;
  /** The archived devices instead of those in use (`?archived=true`, supervisors). */
  archived?: boolean;
}

const DUPLICATE_CODE: FieldErrors = { code: ['device with this code already exists.'] };

/**
 * The page statement: count and the page's representations in one round trip. The page size is part of the text
 * (an integer, at most INSPECTION_MAX_PAGE_SIZE values): with `LIMIT $n` PostgreSQL's generic plan assumes 100 rows,
 * costs more than a custom one and the prepared statement would be re-planned on every execution.
 */
export function devicePageSql(filters: DeviceFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const conditions = [`d."archived_at" IS ${filters.archived ? 'NOT NULL' : 'NULL'}`];
  if (filters.group !== undefined) conditions.push(`d."group" = ${parameters.add(filters.group)}`);
  for (const term of (filters.search ?? '').split(/[\s,]+/).filter(Boolean)) {
    const pattern = parameters.add(containsPattern(term));
    conditions.push(`(d."name" ILIKE ${pattern} OR d."code" ILIKE ${pattern})`);
  }
  const where = `WHERE ${conditions.join(' AND ')}`;
  const sql = `SELECT (SELECT count(*) FROM "devices" d ${where})::int AS "count",
    COALESCE((SELECT '[' || string_agg(${deviceText(filters.archived === true)}, ',' ORDER BY d."id") || ']' FROM (SELECT * FROM "devices" d ${where} ORDER BY d."id" LIMIT ${Math.trunc(limit)} OFFSET ${parameters.add(offset)}) d), '[]') AS "results"`;
  return { sql, parameters: parameters.values };
}

@Injectable()
export class DevicesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventOutbox,
  ) {}

  /** One statement per page (two for `page=last`). */
  page(filters: DeviceFilters, request: PageRequest): Promise<PageRows<string> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = devicePageSql(filters, limit, offset);
      // Without search terms the statement's text is one of two: prepared once per connection.
      const [row] =
        filters.search === undefined
          ? await preparedQuery<PageRows<string>>(this.dataSource, sql, parameters)
          : await this.dataSource.query<Array<PageRows<string>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? '[]' };
    });
  }

  /** The distinct non-empty groups of the devices in use, sorted (by the group index). */
  async groups(): Promise<string[]> {
    const rows = await preparedQuery<{ group: string }>(
      this.dataSource,
      `SELECT DISTINCT d."group" FROM "devices" d WHERE d."group" <> '' AND d."archived_at" IS NULL ORDER BY d."group"`,
      [],
    );
    return rows.map((row) => row.group);
  }

  /** A device in use (an archived one is 404, as a deleted one was). */
  async findOne(id: number): Promise<RawJson> {
    const rows = await preparedQuery<{ body: string }>(
      this.dataSource,
      `SELECT ${DEVICE_TEXT} AS "body" FROM "devices" d WHERE d."id" = $1 AND d."archived_at" IS NULL`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return new RawJson(rows[0].body);
  }

  private async exists(id: number): Promise<void> {
    if (!(await this.dataSource.getRepository(DeviceEntity).existsBy({ id, archivedAt: IsNull() })))
      throw notFound();
  }

  private async validate(input: Input, partial: boolean, id?: number) {
    const { values, errors } = await validateInput(input, DEVICE_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
      extraChecks: {
        code: async (code) => {
          const rows: unknown[] = await this.dataSource.query(
            'SELECT 1 FROM "devices" WHERE "code" = $1 AND "id" <> $2 AND "archived_at" IS NULL',
            [code, id ?? 0],
          );
          return rows.length ? DUPLICATE_CODE.code?.[0] : undefined;
        },
      },
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    return values as WritableValues<typeof DEVICE_SCHEMA>;
  }

  async create(readInput: () => Input, request?: ResourceRequest): Promise<RawJson> {
    const values = await this.validate(readInput(), false);
    try {
      const result = await audited(this.dataSource, request?.user, (manager) =>
        manager.createQueryBuilder().insert().into(DeviceEntity).values(values).returning(['id']).execute(),
      );
      return await this.findOne((result.identifiers[0] as { id: number }).id);
    } catch (error) {
      if (sqlState(error) === '23505') throw validationError(DUPLICATE_CODE);
      throw error;
    }
  }

  /** PUT (partial=false: required fields must be present) and PATCH; only sent fields are assigned. */
  async update(
    id: number,
    readInput: () => Input,
    partial: boolean,
    request?: ResourceRequest,
  ): Promise<RawJson> {
    await this.exists(id);
    const values = await this.validate(readInput(), partial, id);
    if (Object.keys(values).length) {
      try {
        const result = await audited(this.dataSource, request?.user, (manager) =>
          manager
            .createQueryBuilder()
            .update(DeviceEntity)
            .set(values)
            .where('id = :id AND archived_at IS NULL', { id })
            .execute(),
        );
        if (!result.affected) throw notFound();
      } catch (error) {
        if (sqlState(error) === '23505') throw validationError(DUPLICATE_CODE);
        throw error;
      }
    }
    return this.findOne(id);
  }

  /**
   * DELETE: archives the device and, at the same instant, its items in use (404 for a device already archived or
   * missing). Its records, their files and its plan memberships stay; lists, details and due checks leave it out.
   */
  async remove(id: number, request?: ResourceRequest): Promise<void> {
    await audited(this.dataSource, request?.user, async (manager) => {
      const archived: unknown[] = await manager.query(
        `WITH "archived" AS (UPDATE "devices" SET "archived_at" = now() WHERE "id" = $1 AND "archived_at" IS NULL RETURNING "id", "archived_at"),
        "items" AS (UPDATE "check_items" i SET "archived_at" = a."archived_at" FROM "archived" a WHERE i."device_id" = a."id" AND i."archived_at" IS NULL)
        SELECT "id" FROM "archived"`,
        [id],
      );
      if (!archived.length) throw notFound();
      await this.events.emit(manager, ['device.archived'], id);
    });
  }

  /**
   * `POST /api/devices/{id}/restore/`: an archived device is in use again with the items archived with it, and is
   * back in its plans. 404 unless archived; 400 when a device in use took its code meanwhile.
   */
  async restore(id: number, actor?: AuditActor): Promise<RawJson> {
    try {
      await audited(this.dataSource, actor, async (manager) => {
        const restored: unknown[] = await manager.query(
          `WITH "old" AS (SELECT "id", "archived_at" FROM "devices" WHERE "id" = $1 AND "archived_at" IS NOT NULL FOR UPDATE),
            "restored" AS (UPDATE "devices" d SET "archived_at" = NULL FROM "old" WHERE d."id" = "old"."id" RETURNING d."id"),
            "items" AS (UPDATE "check_items" i SET "archived_at" = NULL FROM "old" WHERE i."device_id" = "old"."id" AND i."archived_at" = "old"."archived_at")
            SELECT "id" FROM "restored"`,
          [id],
        );
        if (!restored.length) throw notFound();
      });
    } catch (error) {
      if (sqlState(error) === '23505') throw validationError(DUPLICATE_CODE);
      throw error;
    }
    return this.findOne(id);
  }
}
