import { isoTimestamp } from '../database/sql';
import { fileFieldInfo } from '../drf/metadata';
import { type ResourceSchema, type SchemaField } from '../drf/resource-schema';
import { ACTION_PRIORITIES, ACTION_STATUSES, actionOverdueSql } from './action-transitions';
import { ActionTransitionDto } from './dto/action-transition.dto';

/** A nullable reference the client writes: always in the representation, optional on input. */
const reference = (name: 'record' | 'assignee' | 'assignee_team', table: string, help: string) =>
  ({
    name,
    writable: { kind: 'pk', required: false, nullable: true, table },
    column: { kind: 'column', name: `${name}_id`, options: { type: 'integer', nullable: true } },
    json: 'nullable',
    openApi: { type: Number, nullable: true },
    openApiRead: { help, required: true },
  }) as const satisfies SchemaField;

/** The record's device or item, copied when the action is opened from it. */
const fromRecord = (name: 'device' | 'item', help: string) =>
  ({
    name,
    readOnly: { type: 'field' },
    column: { kind: 'column', name: `${name}_id`, options: { type: 'integer', nullable: true } },
    json: 'nullable',
    openApi: { type: Number, nullable: true },
    help,
  }) as const satisfies SchemaField;

/** The name of the row a reference points to (`null` when none). */
const nameOf = (table: string, alias: string, column: string, reference: string) => (a: string) =>
  `(SELECT ${alias}."${column}" FROM "${table}" ${alias} WHERE ${alias}."id" = ${a}."${reference}")`;

/**
 * A corrective action, each field once: the DRF field tables (create; update: also `status` and `close_out_note`),
 * the OPTIONS metadata, the SQL JSON renderer and the OpenAPI properties (the representation, the JSON input and the
 * multipart form) derive from it (`../drf/resource-schema.ts`). The table has no TypeORM entity (the service writes
 * it with SQL). In the SQL, `$1` is the absolute media base URL and `$2` today's date. How the status may move is
 * `action-transitions.ts`'s rule, as is when an action is overdue.
 */
export const ACTION_SCHEMA = {
  table: 'actions',
  fields: [
    {
      name: 'id',
      readOnly: { type: 'integer' },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'title',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 200 },
      json: 'text',
    },
    {
      name: 'description',
      writable: { kind: 'char', required: false, allowBlank: true },
      json: 'text',
    },
    reference('record', 'check_records', 'The check record it came from (null once deleted, or none).'),
    fromRecord('device', "The record's device."),
    fromRecord('item', "The record's check item."),
    reference('assignee', 'users', 'Id of the user who is to do it (null when a team is, or nobody).'),
    {
      name: 'assignee_username',
      readOnly: { type: 'string' },
      json: { value: nameOf('users', 'u', 'username', 'assignee_id') },
      openApi: { type: String, nullable: true },
    },
    reference(
      'assignee_team',
      'teams',
      'Id of the team whose members are to do it (null when a user is, or nobody). A user and a team together are a 400; sending one unassigns the other.',
    ),
    {
      name: 'assignee_team_name',
      readOnly: { type: 'string' },
      json: { value: nameOf('teams', 't', 'name', 'assignee_team_id') },
      openApi: { type: String, nullable: true },
    },
    {
      name: 'due_date',
      writable: { kind: 'date', required: false, nullable: true },
      json: { value: (a) => `to_char(${a}."due_date", 'YYYY-MM-DD')` },
      openApi: { type: String, format: 'date', nullable: true },
      openApiRead: { required: true },
    },
    {
      name: 'priority',
      writable: { kind: 'choice', required: false, choices: ACTION_PRIORITIES },
      json: 'text',
      openApi: { enum: ACTION_PRIORITIES },
      openApiRead: { openApi: { enum: ACTION_PRIORITIES, default: 'medium' }, required: true },
    },
    {
      name: 'status',
      writable: { kind: 'choice', required: false, choices: ACTION_STATUSES },
      onlyOnUpdate: true,
      json: 'text',
      openApi: { enum: ACTION_STATUSES },
      openApiRead: {
        help: 'open → in_progress → done → verified, or cancelled (see the transitions rules).',
        required: true,
      },
      openApiWrite: { help: 'Writes only (a new action is open).' },
    },
    {
      name: 'overdue',
      readOnly: { type: 'boolean' },
      json: { value: () => actionOverdueSql('$2') },
      help: 'Open or in progress with a due date before today (INSPECTION_TIME_ZONE).',
      openApi: { type: Boolean },
    },
    {
      name: 'close_out_note',
      writable: { kind: 'char', required: false, allowBlank: true },
      onlyOnUpdate: true,
      json: 'text',
    },
    {
      name: 'close_out_photo',
      customWritable: { info: fileFieldInfo('close_out_photo', 'image upload') },
      upload: true,
      json: {
        value: (a) =>
          `CASE WHEN ${a}."close_out_photo" IS NULL THEN NULL ELSE $1::text || ${a}."close_out_photo" END`,
      },
      openApiRead: {
        openApi: { type: String, format: 'uri', nullable: true, readOnly: true },
        help: 'Absolute URL of the close-out photo; set through multipart/form-data.',
        required: true,
      },
      openApiMultipart: {
        openApi: { type: 'string', format: 'binary' },
        help: 'An image (checked by content), at most INSPECTION_MAX_PHOTO_BYTES. An empty text field clears it.',
      },
    },
    {
      name: 'created_at',
      readOnly: { type: 'datetime' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
    {
      name: 'created_by',
      readOnly: { type: 'string' },
      json: 'text',
      help: 'Username of who opened it.',
      openApi: { type: String },
    },
    {
      name: 'updated_at',
      readOnly: { type: 'datetime' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
    {
      /** Every status change, oldest first (`action_transitions`). */
      name: 'transitions',
      readOnly: { type: 'field' },
      json: {
        value: (a) =>
          `COALESCE((SELECT json_agg(json_build_object('from', t."from_status", 'to', t."to_status", 'by', t."by_user", 'at', ${isoTimestamp('t."at"')}) ORDER BY t."id") FROM "action_transitions" t WHERE t."action_id" = ${a}."id"), '[]'::json)`,
      },
      help: 'Every status change, oldest first.',
      openApi: { type: [ActionTransitionDto] },
    },
  ],
} as const satisfies ResourceSchema;
