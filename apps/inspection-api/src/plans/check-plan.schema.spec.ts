import 'reflect-metadata';
import { getMetadataArgsStorage } from 'typeorm';
import { OPEN_ACTION_ON } from '../actions/action-transitions';
import { CheckPlanEntity, FREQUENCIES } from './check-plan.entity';
import { CHECK_PLAN_FIELDS, CHECK_PLAN_INFO } from './dto/check-plan.dto';
import { SCHEDULE_INFO } from './dto/plan-schedule.dto';
import { PLAN_JSON } from './plans.service';

/** What derives from CHECK_PLAN_SCHEMA is what the plans resource declared by hand before (same wire, SQL, table). */
describe('CHECK_PLAN_SCHEMA', () => {
  it('gives the DRF field table of the fields it validates (the schedule is plan-schedule.ts)', () => {
    expect(CHECK_PLAN_FIELDS).toEqual([
      { kind: 'pks', name: 'devices', required: true, table: 'devices' },
      { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
      { kind: 'choice', name: 'frequency', required: true, choices: FREQUENCIES },
      { kind: 'bool', name: 'active' },
      { kind: 'choice', name: 'open_action_on', required: false, choices: OPEN_ACTION_ON },
      { kind: 'pks', name: 'assignees', required: false, table: 'users', allowEmpty: true },
      { kind: 'pks', name: 'assignee_teams', required: false, table: 'teams', allowEmpty: true },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order", () => {
    const choices = (values: readonly string[]) =>
      values.map((value) => ({ value, display_name: value.charAt(0).toUpperCase() + value.slice(1) }));
    expect(JSON.stringify(CHECK_PLAN_INFO)).toBe(
      JSON.stringify({
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        devices: { type: 'field', required: true, read_only: false, label: 'Devices' },
        name: { type: 'string', required: true, read_only: false, label: 'Name', max_length: 200 },
        frequency: {
          type: 'choice',
          required: true,
          read_only: false,
          label: 'Frequency',
          choices: choices(FREQUENCIES),
        },
        active: { type: 'boolean', required: false, read_only: false, label: 'Active' },
        has_devices: { type: 'boolean', required: false, read_only: true, label: 'Has devices' },
        open_action_on: {
          type: 'choice',
          required: false,
          read_only: false,
          label: 'Open action on',
          choices: choices(OPEN_ACTION_ON),
        },
        schedule: SCHEDULE_INFO,
        assignees: { type: 'field', required: false, read_only: false, label: 'Assignees' },
        assignee_teams: { type: 'field', required: false, read_only: false, label: 'Assignee teams' },
      }),
    );
  });

  it("declares the entity's columns as the migrations made them", () => {
    const columns = getMetadataArgsStorage()
      .columns.filter((column) => column.target === CheckPlanEntity)
      .map((column) => ({ property: column.propertyName, mode: column.mode, ...column.options }));
    expect(columns).toEqual([
      { property: 'id', mode: 'regular', type: Number, primary: true },
      { property: 'name', mode: 'regular', type: 'varchar', length: 200 },
      { property: 'frequency', mode: 'regular', type: 'varchar', length: 10 },
      { property: 'active', mode: 'regular', type: 'boolean', default: true },
      {
        property: 'openActionOn',
        mode: 'regular',
        name: 'open_action_on',
        type: 'varchar',
        length: 5,
        default: 'fail',
      },
      { property: 'scheduleEvery', mode: 'regular', name: 'schedule_every', type: 'integer', default: 1 },
      {
        property: 'scheduleUnit',
        mode: 'regular',
        name: 'schedule_unit',
        type: 'varchar',
        length: 5,
        default: 'day',
      },
      { property: 'startsOn', mode: 'regular', name: 'starts_on', type: 'date', nullable: true },
      { property: 'dueTime', mode: 'regular', name: 'due_time', type: 'time', nullable: true },
      { property: 'archivedAt', mode: 'regular', name: 'archived_at', type: 'timestamptz', nullable: true },
    ]);
  });

  it('renders the representation with the same SQL as before', () => {
    const devicesInUse = `FROM "check_plan_devices" pd JOIN "devices" pd_d ON pd_d."id" = pd."device_id" AND pd_d."archived_at" IS NULL WHERE pd."plan_id" = p."id"`;
    expect(PLAN_JSON).toBe(
      `json_build_object('id', p."id", 'devices', COALESCE((SELECT json_agg(pd."device_id" ORDER BY pd."device_id") ${devicesInUse}), '[]'::json), 'name', p."name", 'frequency', p."frequency", 'active', p."active", 'has_devices', EXISTS (SELECT 1 ${devicesInUse}), 'open_action_on', p."open_action_on", 'schedule', json_build_object('every', p."schedule_every", 'unit', p."schedule_unit", 'starts_on', p."starts_on", 'due_time', to_char(p."due_time", 'HH24:MI:SS')), 'assignees', COALESCE((SELECT json_agg(pa."user_id" ORDER BY pa."user_id") FROM "check_plan_assignees" pa WHERE pa."plan_id" = p."id"), '[]'::json), 'assignee_teams', COALESCE((SELECT json_agg(pt."team_id" ORDER BY pt."team_id") FROM "check_plan_teams" pt WHERE pt."plan_id" = p."id"), '[]'::json))`,
    );
  });
});
