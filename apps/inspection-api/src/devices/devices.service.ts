import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { RawJson } from '../drf/json-renderer';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { containsPattern, existingIdsIn, isoTimestamp, SqlParameters, sqlState } from '../database/sql';
import { MediaStorage } from '../media/media-storage';
import { DEVICE_FIELDS } from './dto/device.dto';
import { DeviceEntity } from './device.entity';

/** The CheckItem representation of alias `i`. */
export const CHECK_ITEM_JSON = `json_build_object('id', i."id", 'name', i."name", 'description', i."description", 'expected_value', i."expected_value", 'device', i."device_id")`;

/**
 * The Device representation of alias `d` as columns in the spec's order, for row_to_json: PostgreSQL renders the
 * compact JSON text itself (nested items included, one correlated subquery, no N+1), so the hot list path sends it
 * without parsing and re-serialising it.
 */
const DEVICE_COLUMNS = `d."id", COALESCE((SELECT '[' || string_agg(row_to_json(i)::text, ',' ORDER BY i."id") || ']' FROM (SELECT ci."id", ci."name", ci."description", ci."expected_value", ci."device_id" AS "device" FROM "check_items" ci WHERE ci."device_id" = d."id") i), '[]')::json AS "check_items", ${isoTimestamp('d."created_at"')} AS "created_at", d."name", d."code", d."location", d."group"`;

export interface DeviceFilters {
  group?: string;
  search?: string;
}

const DUPLICATE_CODE: FieldErrors = { code: ['device with this code already exists.'] };

/** The page statement: count and the page's representations in one round trip. */
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
    COALESCE((SELECT '[' || string_agg(row_to_json(x)::text, ',' ORDER BY x."id") || ']' FROM (SELECT ${DEVICE_COLUMNS} FROM (SELECT * FROM "devices" d ${where} ORDER BY d."id" LIMIT ${parameters.add(limit)} OFFSET ${parameters.add(offset)}) d) x), '[]') AS "results"`;
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
      const [row] = await this.dataSource.query<Array<PageRows<string>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? '[]' };
    });
  }

  async findOne(id: number): Promise<RawJson> {
    const rows: Array<{ body: string }> = await this.dataSource.query(
      `SELECT row_to_json(x)::text AS "body" FROM (SELECT ${DEVICE_COLUMNS} FROM "devices" d WHERE d."id" = $1) x`,
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
