import { fileFieldInfo } from '../drf/metadata';
import { type ResourceSchema, type SchemaField } from '../drf/resource-schema';

export const STATUSES = ['ok', 'warn', 'fail'] as const;
export type RecordStatus = (typeof STATUSES)[number];
/** How a record was made: the chat, the chat opened from a scanned device label (presence shown), or the API. */
export const SOURCES = ['chat', 'qr', 'api'] as const;

/** A stored file's absolute URL: `$1` is the absolute media base URL; null when none. */
const fileUrl = (column: string) => (r: string) =>
  `CASE WHEN ${r}."${column}" IS NULL THEN NULL ELSE $1::text || ${r}."${column}" END`;

/** A nullable reference: the representation always has it; the multipart form sends an empty field for null. */
const reference = (name: 'plan' | 'item', table: string, help: string) =>
  ({
    name,
    writable: { kind: 'pk', required: false, nullable: true, table },
    property: `${name}Id`,
    column: { kind: 'column', name: `${name}_id`, options: { type: 'integer', nullable: true } },
    json: 'nullable',
    openApi: { type: Number, nullable: true },
    openApiRead: { help, required: true },
    openApiMultipart: { openApi: { type: Number }, help: 'Empty means null.' },
  }) as const satisfies SchemaField;

/**
 * A check record, each field once: the DRF field table, the OPTIONS metadata, the entity's columns, the SQL JSON
 * renderer and the OpenAPI properties (the representation, the JSON input and the multipart form) derive from it
 * (`../drf/resource-schema.ts`). `photo` and `attachment` are file parts (`records.service.ts` stores them; the
 * representation shows their absolute URLs). Who `checked_by` may be is `checked-by.ts`'s rule; whether an item's
 * value is `out_of_range`, `item-type.ts`'s; `if_unanswered_since` is `unanswered-condition.ts`'s.
 */
export const CHECK_RECORD_SCHEMA = {
  table: 'check_records',
  fields: [
    {
      name: 'id',
      readOnly: { type: 'integer' },
      column: { kind: 'primary' },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'status',
      writable: { kind: 'choice', required: true, choices: STATUSES },
      column: { kind: 'column', options: { type: 'varchar', length: 4 } },
      json: 'text',
      openApi: { enum: STATUSES },
    },
    {
      name: 'value',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 200 },
      column: { kind: 'column', options: { type: 'varchar', length: 200, default: '' } },
      json: 'text',
    },
    {
      name: 'note',
      writable: { kind: 'char', required: false, allowBlank: true },
      column: { kind: 'column', options: { type: 'text', default: '' } },
      json: 'text',
    },
    {
      /** Storage key of the photo (`photos/<random>.<ext>`), null when none. */
      name: 'photo',
      customWritable: { info: fileFieldInfo('photo', 'image upload') },
      upload: true,
      column: { kind: 'column', options: { type: 'varchar', length: 255, nullable: true } },
      json: { value: fileUrl('photo') },
      openApiRead: {
        openApi: { type: String, format: 'uri', nullable: true, readOnly: true },
        help: 'Absolute URL of the photo under /media/photos/; set through multipart/form-data.',
        required: true,
      },
      openApiMultipart: {
        openApi: { type: 'string', format: 'binary' },
        help: 'An image (JPEG, PNG, GIF, WebP, BMP or TIFF, checked by content), at most INSPECTION_MAX_PHOTO_BYTES (10 MB). An empty text field clears it.',
      },
    },
    {
      name: 'attachment',
      customWritable: { info: fileFieldInfo('attachment', 'file upload') },
      upload: true,
      column: { kind: 'column', options: { type: 'varchar', length: 255, nullable: true } },
      json: { value: fileUrl('attachment') },
      openApiRead: {
        openApi: { type: String, format: 'uri', nullable: true, readOnly: true },
        help: 'Absolute URL of the attachment under /media/attachments/; set through multipart/form-data.',
        required: true,
      },
      openApiMultipart: {
        openApi: { type: 'string', format: 'binary' },
        help: 'Any file, at most INSPECTION_MAX_ATTACHMENT_BYTES (10 MB). An empty text field clears it.',
      },
    },
    {
      name: 'checked_at',
      readOnly: { type: 'datetime' },
      property: 'checkedAt',
      column: { kind: 'created', name: 'checked_at' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
    {
      name: 'checked_by',
      writable: { kind: 'char', required: false, allowBlank: true, maxLength: 150 },
      property: 'checkedBy',
      column: { kind: 'column', name: 'checked_by', options: { type: 'varchar', length: 150, default: '' } },
      json: 'text',
    },
    /** Plans are archived, never deleted: the reference stays. */
    reference('plan', 'check_plans', 'Id of a CheckPlan; null once the plan is deleted.'),
    {
      /** Devices are archived, never deleted: the reference stays (ON DELETE RESTRICT). */
      name: 'device',
      writable: { kind: 'pk', required: true, nullable: false, table: 'devices' },
      property: 'deviceId',
      column: { kind: 'column', name: 'device_id', options: { type: 'integer' } },
      json: 'integer',
      openApi: { type: Number },
      openApiRead: { help: 'Id of a Device (deleting the device archives it; its records are kept).' },
    },
    /** Items are archived, never deleted: the reference stays. */
    reference('item', 'check_items', 'Id of a CheckItem; null once the item is deleted.'),
    {
      name: 'source',
      writable: { kind: 'choice', required: false, choices: SOURCES },
      column: { kind: 'column', options: { type: 'varchar', length: 4, default: 'api' } },
      json: 'text',
      openApi: { enum: SOURCES, default: 'api' },
      help: 'How the record was made: "chat", "qr" (the chat opened from a scanned device label), "api".',
    },
    {
      /** The value was outside its item's definition when written (`src/items/item-type.ts`); read-only. */
      name: 'out_of_range',
      readOnly: { type: 'boolean' },
      property: 'outOfRange',
      column: { kind: 'column', name: 'out_of_range', options: { type: 'boolean', default: false } },
      json: 'integer',
      openApi: { type: Boolean },
      help: "True when the value was outside its item's definition when written: a number item's value below min, above max or not a number, a choice item's value not among its options.",
    },
    {
      /** A condition of the create (`unanswered-condition.ts`), never stored or shown. */
      name: 'if_unanswered_since',
      inputOnly: true,
      openApi: { type: String, format: 'date-time', writeOnly: true },
      help: 'Create only if this device\'s item has no record checked at or after this instant (a date alone: the start of that day in INSPECTION_TIME_ZONE); otherwise 409 with that record (docs/protocols/inspection-api.md, "First answer wins").',
    },
  ],
} as const satisfies ResourceSchema;
