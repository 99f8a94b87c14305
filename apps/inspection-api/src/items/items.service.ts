import { audited } from '../audit/audit-actor';
import { type ResourceRequest } from '../drf/resource-routes';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type Input, validateInput } from '../drf/serializer';
import { existingIdsIn, sqlState } from '../database/sql';
import { CHECK_ITEM_JSON } from './check-item-json';
import { CheckItemEntity } from './check-item.entity';
import { CHECK_ITEM_FIELDS } from './dto/check-item.dto';
import { CHECK_ITEM_SCHEMA } from './check-item.schema';
import { propertyName } from '../drf/resource-schema';
import { definitionAfter, type ItemDefinition, type ItemType, readLimit, readOptions } from './item-type';

/** The entity's property of each wire field. */
const COLUMNS: Record<string, string> = Object.fromEntries(
  CHECK_ITEM_SCHEMA.fields.map((field) => [field.name, propertyName(field)]),
);

/** A new item's definition: the spec's free-text item. */
const TEXT_ITEM: ItemDefinition = { type: 'text', unit: '', min: null, max: null, options: [] };

/** Error keys in the serializer's field order. */
const FIELD_ORDER = [
  'non_field_errors',
  ...CHECK_ITEM_SCHEMA.fields
    .filter((field) => 'writable' in field || 'customWritable' in field)
    .map((field) => field.name),
];

/** `min`, `max` and `options` of a body (JSON, or form fields: repeated `options` keys make the list). */
function typedFields(input: Input): { sent: Partial<ItemDefinition>; errors: FieldErrors } {
  const sent: Partial<ItemDefinition> = {};
  const errors: FieldErrors = {};
  const raw = (name: string): unknown => {
    if (input.kind === 'form') {
      const values = input.data.get(name);
      if (values === undefined) return undefined;
      return name === 'options' ? values.filter((value) => value !== '') : values[values.length - 1];
    }
    const data = input.data as Record<string, unknown>;
    return Object.prototype.hasOwnProperty.call(data, name) ? data[name] : undefined;
  };
  for (const name of ['min', 'max'] as const) {
    const value = raw(name);
    if (value === undefined) continue;
    const reading = readLimit(value);
    if ('error' in reading) errors[name] = [reading.error];
    else sent[name] = reading.value;
  }
  const options = raw('options');
  if (options === null) errors.options = ['This field may not be null.'];
  else if (options !== undefined) {
    const reading = readOptions(options);
    if ('error' in reading) errors.options = reading.error;
    else sent.options = reading.value;
  }
  return { sent, errors };
}

const ordered = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(FIELD_ORDER.filter((name) => name in errors).map((name) => [name, errors[name]]));

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

  /** The spec's fields, then the item's type and what it allows (`item-type.ts`), given its stored definition. */
  private async validate(
    input: Input,
    partial: boolean,
    current: ItemDefinition = TEXT_ITEM,
  ): Promise<Partial<CheckItemEntity>> {
    const { values, errors } = await validateInput(input, CHECK_ITEM_FIELDS, {
      partial,
      existingIds: existingIdsIn(this.dataSource),
    });
    const typed = 'non_field_errors' in errors ? { sent: {}, errors: {} } : typedFields(input);
    const all: FieldErrors = { ...errors, ...typed.errors };
    if (isFieldErrors(all)) throw validationError(ordered(all));
    const { type, unit, ...spec } = values as { type?: ItemType; unit?: string } & Record<string, unknown>;
    const sent: Partial<ItemDefinition> = { ...typed.sent };
    if (type !== undefined) sent.type = type;
    if (unit !== undefined) sent.unit = unit;
    const after = definitionAfter(current, sent);
    if ('errors' in after) throw validationError(ordered(after.errors));
    const entity: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(spec)) entity[COLUMNS[field] ?? field] = value;
    const { definition } = after;
    for (const key of ['type', 'unit', 'min', 'max', 'options'] as const)
      if (JSON.stringify(definition[key]) !== JSON.stringify(current[key]) || key in sent || !partial)
        entity[key] = definition[key];
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
    const current = await this.dataSource.getRepository(CheckItemEntity).findOne({
      select: { type: true, unit: true, min: true, max: true, options: true },
      where: { id, archivedAt: IsNull() },
    });
    if (!current) throw notFound();
    const values = await this.validate(readInput(), partial, current);
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
