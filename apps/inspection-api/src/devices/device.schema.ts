import { type ResourceSchema, ID_FIELD } from '../drf/resource-schema';
import { CheckItemDto } from '../items/dto/check-item.dto';
import { CHECK_ITEM_INFO } from '../items/dto/check-item.dto';
import { CHECK_ITEM_TEXT } from '../items/check-item-json';

/**
 * A device, each field once: the DRF field table, the OPTIONS metadata, the entity's columns, the SQL JSON renderer
 * and the OpenAPI properties derive from it (`../drf/resource-schema.ts`). `code` is unique among the devices in use
 * (a partial unique index; the duplicate check is in `devices.service.ts`).
 */
export const DEVICE_SCHEMA = {
  table: 'devices',
  fields: [
    ID_FIELD,
    {
      name: 'check_items',
      readOnly: {
        type: 'field',
        extra: {
          child: { type: 'nested object', required: false, read_only: true, children: CHECK_ITEM_INFO },
        },
      },
      /**
       * The items in use with the device, by id (one correlated subquery, no N+1): for a device in use the items
       * not archived, for an archived device the items archived with it (the same `archived_at`).
       */
      json: {
        json: (alias, variant) =>
          `COALESCE((SELECT '[' || string_agg(${CHECK_ITEM_TEXT}, ',' ORDER BY ci."id") || ']' FROM "check_items" ci WHERE ci."device_id" = ${alias}."id" AND ${variant === 'archived' ? `ci."archived_at" = ${alias}."archived_at"` : 'ci."archived_at" IS NULL'}), '[]')`,
      },
      help: "The device's check items, by id.",
      openApi: { type: [CheckItemDto] },
    },
    {
      name: 'created_at',
      readOnly: { type: 'datetime' },
      property: 'createdAt',
      column: { kind: 'created', name: 'created_at' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
    {
      name: 'name',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 200 },
      column: { kind: 'column', options: { type: 'varchar', length: 200 } },
      json: 'text',
    },
    {
      name: 'code',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 100 },
      column: { kind: 'column', options: { type: 'varchar', length: 100 } },
      json: 'text',
      help: 'Unique among devices.',
    },
    {
      name: 'location',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 200 },
      column: { kind: 'column', options: { type: 'varchar', length: 200, default: '' } },
      json: 'text',
    },
    {
      name: 'group',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 100 },
      column: { kind: 'column', options: { type: 'varchar', length: 100, default: '' } },
      json: 'text',
    },
    {
      /** Set by DELETE (the device is archived, its records stay); null while the device is in use. */
      name: 'archived_at',
      readOnly: false,
      property: 'archivedAt',
      column: { kind: 'column', name: 'archived_at', options: { type: 'timestamptz', nullable: true } },
      json: 'timestamp',
      onlyArchived: true,
      help: 'When the device was deleted (archived): only in the `?archived=true` list.',
      openApi: { format: 'date-time', type: String },
    },
  ],
} as const satisfies ResourceSchema;
