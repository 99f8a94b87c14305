import { isoTimestamp } from '../database/sql';
import { fileFieldInfo, readOnlyFieldInfo } from '../drf/metadata';
import { ACTION_PRIORITIES, ACTION_STATUSES, actionOverdueSql } from './action-transitions';
import { ACTION_JSON } from './actions.service';
import {
  ACTION_COMMENT_FIELDS,
  ACTION_COMMENT_INFO,
  ACTION_CREATE_FIELDS,
  ACTION_INFO,
  ACTION_UPDATE_FIELDS,
} from './dto/action.dto';

/** What derives from ACTION_SCHEMA is what the actions resource declared by hand before (same wire, same SQL). */
describe('ACTION_SCHEMA', () => {
  const common = [
    { kind: 'char', name: 'title', required: true, allowBlank: false, maxLength: 200 },
    { kind: 'char', name: 'description', required: false, allowBlank: true },
    { kind: 'pk', name: 'record', required: false, nullable: true, table: 'check_records' },
    { kind: 'pk', name: 'assignee', required: false, nullable: true, table: 'users' },
    { kind: 'pk', name: 'assignee_team', required: false, nullable: true, table: 'teams' },
    { kind: 'date', name: 'due_date', required: false, nullable: true },
    { kind: 'choice', name: 'priority', required: false, choices: ACTION_PRIORITIES },
  ];

  it('gives the DRF field tables: a create, and an update (also status and close_out_note)', () => {
    expect(ACTION_CREATE_FIELDS).toEqual(common);
    expect(ACTION_UPDATE_FIELDS).toEqual([
      ...common,
      { kind: 'choice', name: 'status', required: false, choices: ACTION_STATUSES },
      { kind: 'char', name: 'close_out_note', required: false, allowBlank: true },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order", () => {
    const choices = (values: readonly string[]) =>
      values.map((value) => ({
        value,
        display_name: value
          .split('_')
          .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
          .join(' '),
      }));
    const field = (label: string, type: string, required = false, extra: object = {}) => ({
      type,
      required,
      read_only: false,
      label,
      ...extra,
    });
    expect(JSON.stringify(ACTION_INFO)).toBe(
      JSON.stringify({
        id: readOnlyFieldInfo('id', 'integer'),
        title: field('Title', 'string', true, { max_length: 200 }),
        description: field('Description', 'string'),
        record: field('Record', 'field'),
        device: readOnlyFieldInfo('device', 'field'),
        item: readOnlyFieldInfo('item', 'field'),
        assignee: field('Assignee', 'field'),
        assignee_username: readOnlyFieldInfo('assignee_username', 'string'),
        assignee_team: field('Assignee team', 'field'),
        assignee_team_name: readOnlyFieldInfo('assignee_team_name', 'string'),
        due_date: field('Due date', 'date'),
        priority: field('Priority', 'choice', false, { choices: choices(ACTION_PRIORITIES) }),
        status: field('Status', 'choice', false, { choices: choices(ACTION_STATUSES) }),
        overdue: readOnlyFieldInfo('overdue', 'boolean'),
        close_out_note: field('Close out note', 'string'),
        close_out_photo: fileFieldInfo('close_out_photo', 'image upload'),
        created_at: readOnlyFieldInfo('created_at', 'datetime'),
        created_by: readOnlyFieldInfo('created_by', 'string'),
        updated_at: readOnlyFieldInfo('updated_at', 'datetime'),
        transitions: readOnlyFieldInfo('transitions', 'field'),
      }),
    );
  });

  it('renders the representation with the same SQL as before', () => {
    expect(ACTION_JSON).toBe(
      `json_build_object('id', a."id", 'title', a."title", 'description', a."description", 'record', a."record_id", 'device', a."device_id", 'item', a."item_id", 'assignee', a."assignee_id", 'assignee_username', (SELECT u."username" FROM "users" u WHERE u."id" = a."assignee_id"), 'assignee_team', a."assignee_team_id", 'assignee_team_name', (SELECT t."name" FROM "teams" t WHERE t."id" = a."assignee_team_id"), 'due_date', to_char(a."due_date", 'YYYY-MM-DD'), 'priority', a."priority", 'status', a."status", 'overdue', ${actionOverdueSql('$2')}, 'close_out_note', a."close_out_note", 'close_out_photo', CASE WHEN a."close_out_photo" IS NULL THEN NULL ELSE $1::text || a."close_out_photo" END, 'created_at', ${isoTimestamp('a."created_at"')}, 'created_by', a."created_by", 'updated_at', ${isoTimestamp('a."updated_at"')}, 'transitions', COALESCE((SELECT json_agg(json_build_object('from', t."from_status", 'to', t."to_status", 'by', t."by_user", 'at', ${isoTimestamp('t."at"')}) ORDER BY t."id") FROM "action_transitions" t WHERE t."action_id" = a."id"), '[]'::json))`,
    );
  });

  it("gives a comment's field table and OPTIONS description", () => {
    expect(ACTION_COMMENT_FIELDS).toEqual([
      { kind: 'char', name: 'text', required: true, allowBlank: false, maxLength: 5000 },
    ]);
    expect(JSON.stringify(ACTION_COMMENT_INFO)).toBe(
      JSON.stringify({
        id: readOnlyFieldInfo('id', 'integer'),
        action: readOnlyFieldInfo('action', 'field'),
        text: { type: 'string', required: true, read_only: false, label: 'Text', max_length: 5000 },
        author: readOnlyFieldInfo('author', 'string'),
        created_at: readOnlyFieldInfo('created_at', 'datetime'),
      }),
    );
  });
});
