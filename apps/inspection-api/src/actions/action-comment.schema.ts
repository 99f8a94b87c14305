import { type ResourceSchema } from '../drf/resource-schema';

/**
 * A comment on an action (`/api/actions/{id}/comments/`), each field once: the DRF field table, the OPTIONS
 * metadata, the SQL JSON renderer and the OpenAPI properties derive from it (`../drf/resource-schema.ts`). The
 * table has no TypeORM entity (the service writes it with SQL).
 */
export const ACTION_COMMENT_SCHEMA = {
  table: 'action_comments',
  fields: [
    {
      name: 'id',
      readOnly: { type: 'integer' },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'action',
      readOnly: { type: 'field' },
      column: { kind: 'column', name: 'action_id', options: { type: 'integer' } },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'text',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 5000 },
      json: 'text',
    },
    {
      name: 'author',
      readOnly: { type: 'string' },
      json: 'text',
      help: 'Username of the author.',
      openApi: { type: String },
    },
    {
      name: 'created_at',
      readOnly: { type: 'datetime' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
  ],
} as const satisfies ResourceSchema;
