import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { RawJson } from '../drf/json-renderer';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import {
  containsPattern,
  existingIdsIn,
  isoTimestamp,
  preparedQuery,
  SqlParameters,
  sqlState,
} from '../database/sql';
import { MediaStorage } from '../media/media-storage';
import { DEVICE_FIELDS } from './dto/device.dto';
import { DeviceEntity } from './device.entity';

/** The CheckItem representation of alias `i`. */
export const CHECK_ITEM_JSON = `json_build_object('id', i."id", 'name', i."name", 'description', i."description", 'expected_value', i."expected_value", 'device', i."device_id")`;

/** JSON text of a string column, escaped as row_to_json escapes it. */
const jsonText = (column: string): string => `to_json(${column})::text`;

/** The CheckItem representation of alias `ci` as compact JSON text. */
const CHECK_ITEM_TEXT = `'{"id":' || ci."id" || ',"name":' || ${jsonText('ci."name"')} || ',"description":' || ${jsonText('ci."description"')} || ',"expected_value":' || ${jsonText('ci."expected_value"')} || ',"device":' || ci."device_id" || '}'`;

/**
 * The Device representation of alias `d` as compact JSON text, keys in the spec's order, nested items included (one
 * correlated subquery, no N+1): PostgreSQL renders the bytes and the hot list path sends them without parsing and
 * re-serialising them. Built by concatenation rather than `row_to_json` of a row with a `::json` column: no JSON
 * re-parse of the items and no per-column type lookups, the same bytes (`to_json` escapes strings as `row_to_json`).
 */
const DEVICE_TEXT = `'{"id":' || d."id" || ',"check_items":' || COALESCE((SELECT '[' || string_agg(${CHECK_ITEM_TEXT}, ',' ORDER BY ci."id") || ']' FROM "check_items" ci WHERE ci."device_id" = d."id"), '[]') || ',"created_at":"' || ${isoTimestamp('d."created_at"')} || '","name":' || ${jsonText('d."name"')} || ',"code":' || ${jsonText('d."code"')} || ',"location":' || ${jsonText('d."location"')} || ',"group":' || ${jsonText('d."group"')} || '}'`;

export interface DeviceFilters {
  group?: string;
  search?: string;
}

const DUPLICATE_CODE: FieldErrors = { code: ['device with this code already exists.'] };

/**
 * The page statement: count and the page's representations in one round trip. The page size is part of the text
 * (an integer, at most INSPECTION_MAX_PAGE_SIZE values): with `LIMIT $n` PostgreSQL's generic plan assumes 100 rows,
 * costs more than a custom one and the prepared statement would be re-planned on every execution.
 */
export function devicePageSql(filters: DeviceFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const conditions: string[] = [];
  if (filters.group !== undefined) conditions.push(`d."group" = ${parameters.add(filters.group)}`);
  for (const term of (filters.search ?? '').split(/[\s,]+/).filter(Boolean)) {
    const pattern = parameters.add(containsPattern(term));
    conditions.push(`(d."name" ILIKE ${pattern} OR d."code" ILIKE ${pattern})`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const sql = `SELECT (SELECT count(*) FROM "devices" d ${where})::int AS "count",
    COALESCE((SELECT '[' || string_agg(${DEVICE_TEXT}, ',' ORDER BY d."id") || ']' FROM (SELECT * FROM "devices" d ${where} ORDER BY d."id" LIMIT ${Math.trunc(limit)} OFFSET ${parameters.add(offset)}) d), '[]') AS "results"`;
  return { sql, parameters: parameters.values };
}

@Injectable()
export class DevicesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly media: MediaStorage,
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

  /** The distinct non-empty groups, sorted (by the group index). */
  async groups(): Promise<string[]> {
    const rows = await preparedQuery<{ group: string }>(
      this.dataSource,
      `SELECT DISTINCT d."group" FROM "devices" d WHERE d."group" <> '' ORDER BY d."group"`,
      [],
    );
    return rows.map((row) => row.group);
  }

  async findOne(id: number): Promise<RawJson> {
    const rows = await preparedQuery<{ body: string }>(
      this.dataSource,
      `SELECT ${DEVICE_TEXT} AS "body" FROM "devices" d WHERE d."id" = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return new RawJson(rows[0].body);
  }

  private async exists(id: number): Promise<void> {
    if (!(await this.dataSource.getRepository(DeviceEntity).existsBy({ id }))) throw notFound();
  }

  private async validate(input: Input, partial: boolean, id?: number) {
    const { values, errors } = await validateInput(input, DEVICE_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
      extraChecks: {
        code: async (code) => {
          const rows: unknown[] = await this.dataSource.query(
            'SELECT 1 FROM "devices" WHERE "code" = $1 AND "id" <> $2',
            [code, id ?? 0],
          );
          return rows.length ? DUPLICATE_CODE.code?.[0] : undefined;
        },
      },
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    return values as Partial<Record<'name' | 'code' | 'location' | 'group', string>>;
  }

  async create(readInput: () => Input): Promise<RawJson> {
    const values = await this.validate(readInput(), false);
    try {
      const result = await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(DeviceEntity)
        .values(values)
        .returning(['id'])
        .execute();
      return await this.findOne((result.identifiers[0] as { id: number }).id);
    } catch (error) {
      if (sqlState(error) === '23505') throw validationError(DUPLICATE_CODE);
      throw error;
    }
  }

  /** PUT (partial=false: required fields must be present) and PATCH; only sent fields are assigned. */
  async update(id: number, readInput: () => Input, partial: boolean): Promise<RawJson> {
    await this.exists(id);
    const values = await this.validate(readInput(), partial, id);
    if (Object.keys(values).length) {
      try {
        const result = await this.dataSource
          .createQueryBuilder()
          .update(DeviceEntity)
          .set(values)
          .where('id = :id', { id })
          .execute();
        if (!result.affected) throw notFound();
      } catch (error) {
        if (sqlState(error) === '23505') throw validationError(DUPLICATE_CODE);
        throw error;
      }
    }
    return this.findOne(id);
  }

  /** Deletes the device with its items, plan memberships and records (and the records' files). */
  async remove(id: number): Promise<void> {
    const files = await this.dataSource.transaction(async (manager) => {
      const records: Array<{ photo: string | null; attachment: string | null }> = await manager.query(
        'WITH gone AS (DELETE FROM "check_records" WHERE "device_id" = $1 RETURNING "photo", "attachment") SELECT * FROM gone',
        [id],
      );
      const deleted: unknown[] = await manager.query(
        'WITH gone AS (DELETE FROM "devices" WHERE "id" = $1 RETURNING "id") SELECT * FROM gone',
        [id],
      );
      if (!deleted.length) throw notFound();
      return records.flatMap((record) => [record.photo, record.attachment]);
    });
    await this.media.removeAll(files);
  }
}
