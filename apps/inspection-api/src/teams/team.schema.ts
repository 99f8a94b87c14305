import { type ResourceSchema } from '../drf/resource-schema';

/**
 * A team, each field once: the DRF field table, the OPTIONS metadata, the SQL JSON renderer and the OpenAPI
 * properties derive from it (`../drf/resource-schema.ts`). The table has no TypeORM entity (the service writes it
 * with SQL). `name` is unique (a unique index; the duplicate check is in `teams.service.ts`).
 */
export const TEAM_SCHEMA = {
  table: 'teams',
  fields: [
    {
      name: 'id',
      readOnly: { type: 'integer' },
      json: 'integer',
      openApi: { type: Number },
    },
    {
      name: 'name',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 150 },
      json: 'text',
      help: 'Unique.',
      openApiWrite: { help: null },
    },
    {
      /** The members (`team_members`), ascending; `[]` by default; a write replaces the whole set. */
      name: 'members',
      writable: { kind: 'pks', required: false, table: 'users', allowEmpty: true },
      json: {
        value: (alias) =>
          `COALESCE((SELECT json_agg(tm."user_id" ORDER BY tm."user_id") FROM "team_members" tm WHERE tm."team_id" = ${alias}."id"), '[]'::json)`,
      },
      openApiRead: {
        openApi: { type: [Number] },
        help: 'Ids of the members (active users when written), ascending; [] by default.',
        required: true,
      },
      openApiWrite: {
        openApi: { type: [Number], uniqueItems: true },
        help: 'Replaces the whole set; [] clears it.',
      },
    },
    {
      name: 'created_at',
      readOnly: { type: 'datetime' },
      json: 'timestamp',
      openApi: { format: 'date-time', type: String },
    },
  ],
} as const satisfies ResourceSchema;
