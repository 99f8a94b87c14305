import { audited } from '../audit/audit-actor';
import { type ResourceRequest } from '../drf/resource-routes';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { existingIdsIn, sqlState } from '../database/sql';
import { CHECK_ITEM_JSON } from '../devices/devices.service';
import { CheckItemEntity } from './check-item.entity';
import { CHECK_ITEM_FIELDS } from './dto/check-item.dto';

const COLUMNS: Record<string, string> = {
  name: 'name',
  description: 'description',
  expected_value: 'expectedValue',
  device: 'deviceId',
};

@Injectable()
export class ItemsService {
  constructor(private readonly dataSource: DataSource) {}

  /** Every item in use (no paging, as the spec says), ordered by id; one statement. */
  async list(device: number | undefined): Promise<unknown> {
    const where = `WHERE i."archived_at" IS NULL${device === undefined ? '' : ' AND i."device_id" = $1'}`;
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT COALESCE((SELECT json_agg(${CHECK_ITEM_JSON} ORDER BY i."id") FROM "check_items" i ${where}), '[]') AS "body"`,
      device === undefined ? [] : [device],
    );
    return rows[0]?.body ?? [];
  }

  async findOne(id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT ${CHECK_ITEM_JSON} AS "body" FROM "check_items" i WHERE i."id" = $1 AND i."archived_at" IS NULL`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  private async validate(input: Input, partial: boolean): Promise<Partial<CheckItemEntity>> {
    const { values, errors } = await validateInput(input, CHECK_ITEM_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    const entity: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values)) entity[COLUMNS[field] ?? field] = value;
    return entity;
  }

  /** A device deleted between validation and the write is reported as the validation would have. */
  private deviceVanished(error: unknown, values: Partial<CheckItemEntity>): never {
    if (sqlState(error) === '23503')
      throw validationError({ device: [`Invalid pk "${String(values.deviceId)}" - object does not exist.`] });
    throw error;
  }

  async create(readInput: () => Input, request?: ResourceRequest): Promise<unknown> {
    const values = await this.validate(readInput(), false);
    try {
      const result = await audited(this.dataSource, request?.user, (manager) =>
        manager
          .createQueryBuilder()
          .insert()
          .into(CheckItemEntity)
          .values(values)
          .returning(['id'])
          .execute(),
      );
      return await this.findOne((result.identifiers[0] as { id: number }).id);
    } catch (error) {
      return this.deviceVanished(error, values);
    }
  }

  async update(
    id: number,
    readInput: () => Input,
    partial: boolean,
    request?: ResourceRequest,
  ): Promise<unknown> {
    if (!(await this.dataSource.getRepository(CheckItemEntity).existsBy({ id, archivedAt: IsNull() })))
      throw notFound();
    const values = await this.validate(readInput(), partial);
    if (Object.keys(values).length) {
      try {
        await audited(this.dataSource, request?.user, (manager) =>
          manager
            .createQueryBuilder()
            .update(CheckItemEntity)
            .set(values)
            .where('id = :id AND archived_at IS NULL', { id })
            .execute(),
        );
      } catch (error) {
        this.deviceVanished(error, values);
      }
    }
    return this.findOne(id);
  }

  /** DELETE archives the item: 404 from then on, out of lists and due checks; its records keep referring to it. */
  async remove(id: number, request?: ResourceRequest): Promise<void> {
    const archived: unknown[] = await audited(this.dataSource, request?.user, (manager) =>
      manager.query(
        'WITH "archived" AS (UPDATE "check_items" SET "archived_at" = now() WHERE "id" = $1 AND "archived_at" IS NULL RETURNING "id") SELECT * FROM "archived"',
        [id],
      ),
    );
    if (!archived.length) throw notFound();
  }
}
