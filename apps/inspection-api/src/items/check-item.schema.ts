import { type ResourceSchema } from '../drf/resource-schema';
import { ITEM_TYPES, MAX_OPTION_LENGTH, MAX_OPTIONS } from './item-type';

const TYPE_DESCRIPTION =
  'What the value is: "text" (default, free text), "number" (with min, max and unit; a value outside them is flagged out_of_range on the record), "yes_no", or "choice" (one of options).';

/** `min` and `max`: DRF FloatFields (nullable), validated with the type (`item-type.ts`). */
const limit = (name: 'min' | 'max', help: string) =>
  ({
    name,
    customWritable: {
      info: { type: 'float', required: false, read_only: false, label: name === 'min' ? 'Min' : 'Max' },
    },
    column: { kind: 'column', options: { type: 'double precision', nullable: true } },
    json: 'nullable',
    openApi: { type: Number, nullable: true },
    openApiRead: { help },
  }) as const;

/**
 * A check item, each field once: the DRF field table, the OPTIONS metadata, the entity's columns, the SQL JSON
 * renderers (the item's own routes, and nested in a device's) and the OpenAPI properties derive from it
 * (`../drf/resource-schema.ts`). What the item's type allows (`type`, `unit`, `min`, `max`, `options`) is
 * `item-type.ts`'s rule; `min`, `max` and `options` are validated there, not by the DRF field table.
 */
export const CHECK_ITEM_SCHEMA = {
  table: 'check_items',
  fields: [
    {
      name: 'id',
      readOnly: { type: 'integer' },
      column: { kind: 'primary' },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'name',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 200 },
      column: { kind: 'column', options: { type: 'varchar', length: 200 } },
      json: 'text',
    },
    {
      name: 'description',
      writable: { kind: 'char', required: false, allowBlank: true },
      column: { kind: 'column', options: { type: 'text', default: '' } },
      json: 'text',
    },
    {
      name: 'expected_value',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 200 },
      property: 'expectedValue',
      column: {
        kind: 'column',
        name: 'expected_value',
        options: { type: 'varchar', length: 200, default: '' },
      },
      json: 'text',
    },
    {
      name: 'device',
      writable: { kind: 'pk', required: true, nullable: false, table: 'devices' },
      property: 'deviceId',
      column: { kind: 'column', name: 'device_id', options: { type: 'integer' } },
      json: 'integer',
      openApi: { type: Number },
      // The representation and the input describe it differently.
      openApiRead: { help: 'Id of a Device (deleting the device archives the item with it).' },
      openApiWrite: { help: 'Id of a Device.' },
    },
    {
      /** What the value is (`item-type.ts`): text (default), number (min, max, unit), yes_no, choice (options). */
      name: 'type',
      writable: { kind: 'choice', required: false, choices: ITEM_TYPES },
      column: { kind: 'column', options: { type: 'varchar', length: 6, default: 'text' } },
      json: 'text',
      help: TYPE_DESCRIPTION,
      openApi: { enum: ITEM_TYPES, default: 'text' },
    },
    {
      name: 'unit',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 20 },
      column: { kind: 'column', options: { type: 'varchar', length: 20, default: '' } },
      json: 'text',
      openApiRead: { help: 'Unit of a number item (e.g. "bar").' },
    },
    limit('min', 'Lowest value in range (number items).'),
    limit('max', 'Highest value in range (number items).'),
    {
      /** DRF's ListField(child=CharField(max_length=100)), at most MAX_OPTIONS (`readOptions`). */
      name: 'options',
      customWritable: {
        info: {
          type: 'list',
          required: false,
          read_only: false,
          label: 'Options',
          child: { type: 'string', required: true, read_only: false, max_length: MAX_OPTION_LENGTH },
        },
      },
      column: { kind: 'column', options: { type: 'text', array: true, default: () => "'{}'" } },
      json: 'to_json',
      openApi: { type: [String], maxItems: MAX_OPTIONS },
      openApiRead: { help: 'The answers a choice item offers (required for "choice", empty otherwise).' },
    },
    {
      /** Set by DELETE of the item, or with its device's archiving (the same instant); null while in use. */
      name: 'archived_at',
      readOnly: false,
      property: 'archivedAt',
      column: { kind: 'column', name: 'archived_at', options: { type: 'timestamptz', nullable: true } },
    },
  ],
} as const satisfies ResourceSchema;
