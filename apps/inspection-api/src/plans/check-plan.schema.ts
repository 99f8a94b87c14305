import { type ResourceSchema, ID_FIELD } from '../drf/resource-schema';
import { OPEN_ACTION_ON } from '../actions/action-transitions';
import { PlanScheduleDto, SCHEDULE_INFO } from './dto/plan-schedule.dto';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The plan's devices in use (alias `pd`, for the plan of alias `p`): archived devices stay members, unlisted. */
const devicesInUse = (p: string) =>
  `FROM "check_plan_devices" pd JOIN "devices" pd_d ON pd_d."id" = pd."device_id" AND pd_d."archived_at" IS NULL WHERE pd."plan_id" = ${p}."id"`;

/** A set of ids of a join table, ascending (`[]` when none). */
const idsOf = (table: string, alias: string, id: string, p: string) =>
  `COALESCE((SELECT json_agg(${alias}."${id}" ORDER BY ${alias}."${id}") FROM "${table}" ${alias} WHERE ${alias}."plan_id" = ${p}."id"), '[]'::json)`;

/**
 * A check plan, each field once: the DRF field table, the OPTIONS metadata, the entity's columns, the SQL JSON
 * renderer and the OpenAPI properties derive from it (`../drf/resource-schema.ts`). `schedule` is validated by
 * `plan-schedule.ts` and stored in four columns; `frequency` follows it (docs/protocols/inspection-api.md,
 * "Schedules"). `devices` (those in use) and the assignee sets are ascending; `has_devices` is false when every
 * device of the plan was deleted (archived), so a plan left without devices says so.
 */
export const CHECK_PLAN_SCHEMA = {
  table: 'check_plans',
  fields: [
    ID_FIELD,
    {
      name: 'devices',
      writable: { kind: 'pks', required: true, table: 'devices' },
      json: {
        value: (p) =>
          `COALESCE((SELECT json_agg(pd."device_id" ORDER BY pd."device_id") ${devicesInUse(p)}), '[]'::json)`,
      },
      openApi: { type: [Number], uniqueItems: true, minItems: 1 },
      help: 'Ids of existing devices; a non-empty list without duplicates (duplicates are a 400).',
      openApiWrite: { help: null },
    },
    {
      name: 'name',
      writable: { kind: 'char', required: true, allowBlank: false, maxLength: 200 },
      column: { kind: 'column', options: { type: 'varchar', length: 200 } },
      json: 'text',
    },
    {
      name: 'frequency',
      writable: { kind: 'choice', required: true, choices: FREQUENCIES },
      column: { kind: 'column', options: { type: 'varchar', length: 10 } },
      json: 'text',
      openApi: { enum: FREQUENCIES },
    },
    {
      name: 'active',
      writable: { kind: 'bool' },
      column: { kind: 'column', options: { type: 'boolean', default: true } },
      json: 'integer',
      openApi: { default: true, type: Boolean },
    },
    {
      name: 'has_devices',
      readOnly: { type: 'boolean' },
      json: { value: (p) => `EXISTS (SELECT 1 ${devicesInUse(p)})` },
      help: 'False when every device of the plan was deleted (archived): the plan has nothing to check.',
      openApi: { type: Boolean },
    },
    {
      /** When a check record opens a corrective action by itself: `fail`, `warn` (a warning or a failure) or `never`. */
      name: 'open_action_on',
      writable: { kind: 'choice', required: false, choices: OPEN_ACTION_ON },
      property: 'openActionOn',
      column: {
        kind: 'column',
        name: 'open_action_on',
        options: { type: 'varchar', length: 5, default: 'fail' },
      },
      json: 'text',
      openApi: { enum: OPEN_ACTION_ON, default: 'fail' },
      help: 'When a check record of the plan opens a corrective action by itself: "fail", "warn" (a warning or a failure) or "never".',
      openApiWrite: { help: null },
    },
    {
      /** The schedule (rules in `src/due/due-rules.ts`): every N days, weeks, months or years; the four columns below. */
      name: 'schedule',
      customWritable: { info: SCHEDULE_INFO },
      json: {
        value: (p) =>
          `json_build_object('every', ${p}."schedule_every", 'unit', ${p}."schedule_unit", 'starts_on', ${p}."starts_on", 'due_time', to_char(${p}."due_time", 'HH24:MI:SS'))`,
      },
      openApi: { type: PlanScheduleDto },
      openApiRead: {
        help: 'How often the checks come round: every N days, weeks, months or years. `frequency` shows its unit as the spec word (day: daily, week: weekly, month and year: monthly).',
        required: true,
      },
      openApiWrite: {
        help: 'Written whole. With it `frequency` may be left out (it follows the schedule); without it a frequency that changes sets the schedule to every 1 day, week or month.',
      },
    },
    {
      name: 'schedule_every',
      property: 'scheduleEvery',
      column: { kind: 'column', name: 'schedule_every', options: { type: 'integer', default: 1 } },
    },
    {
      name: 'schedule_unit',
      property: 'scheduleUnit',
      column: {
        kind: 'column',
        name: 'schedule_unit',
        options: { type: 'varchar', length: 5, default: 'day' },
      },
    },
    {
      /** The first day of the first period (and the periods' phase); null: periods aligned on 2001-01-01. */
      name: 'starts_on',
      property: 'startsOn',
      column: { kind: 'column', name: 'starts_on', options: { type: 'date', nullable: true } },
    },
    {
      /** The time of day the check is due by on the period's last day (`HH:MM:SS`); null: by the period's end. */
      name: 'due_time',
      property: 'dueTime',
      column: { kind: 'column', name: 'due_time', options: { type: 'time', nullable: true } },
    },
    {
      name: 'assignees',
      writable: { kind: 'pks', required: false, table: 'users', allowEmpty: true },
      json: { value: (p) => idsOf('check_plan_assignees', 'pa', 'user_id', p) },
      openApiRead: {
        openApi: { type: [Number] },
        help: 'Ids of the users responsible for the rounds (active users); [] by default.',
        required: true,
      },
      openApiWrite: {
        openApi: { type: [Number], uniqueItems: true },
        help: 'Replaces the whole set; [] clears it.',
      },
    },
    {
      name: 'assignee_teams',
      writable: { kind: 'pks', required: false, table: 'teams', allowEmpty: true },
      json: { value: (p) => idsOf('check_plan_teams', 'pt', 'team_id', p) },
      openApiRead: {
        openApi: { type: [Number] },
        help: "Ids of the teams responsible for the rounds; every member counts as an assignee of the plan's checks (due lists, each person's load, reminders); [] by default.",
        required: true,
      },
      openApiWrite: {
        openApi: { type: [Number], uniqueItems: true },
        help: 'Ids of existing teams; replaces the whole set; [] clears it.',
      },
    },
    {
      /** Set by DELETE (the plan is archived, its records keep referring to it); null while in use. */
      name: 'archived_at',
      property: 'archivedAt',
      column: { kind: 'column', name: 'archived_at', options: { type: 'timestamptz', nullable: true } },
    },
  ],
} as const satisfies ResourceSchema;
