import { isoTimestamp } from '../database/sql';

/**
 * The domain events inspection-api emits (docs/protocols/events-and-webhooks.md): what people and other systems
 * react to. Each names its subject (the part before the dot), whose JSON is the event's `data`.
 */
export const EVENT_TYPES = [
  'record.failed',
  'record.warned',
  'device.archived',
  'action.assigned',
  'action.done',
  'action.verified',
  'check.due',
  'check.overdue',
  'action.overdue',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: unknown): value is EventType =>
  typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);

/** The events of the runner's schedule (scheduled-events.ts), each emitted once per occurrence (EventOutbox.emitOnce). */
export type ScheduledEventType = Extract<EventType, 'check.due' | 'check.overdue' | 'action.overdue'>;

/** Each subject's table (alias `x`) and the JSON of one row: the event's `data`. */
export const EVENT_SUBJECTS: Record<string, { table: string; json: string }> = {
  record: {
    table: 'check_records',
    json: `json_build_object('id', x."id", 'status', x."status", 'value', x."value", 'note', x."note", 'checked_at', ${isoTimestamp('x."checked_at"')}, 'checked_by', x."checked_by", 'plan', x."plan_id", 'device', x."device_id", 'item', x."item_id", 'source', x."source")`,
  },
  device: {
    table: 'devices',
    json: `json_build_object('id', x."id", 'code', x."code", 'name', x."name", 'location', x."location", 'group', x."group", 'archived_at', ${isoTimestamp('x."archived_at"')})`,
  },
  action: {
    table: 'actions',
    json: `json_build_object('id', x."id", 'title', x."title", 'status', x."status", 'priority', x."priority", 'assignee', x."assignee_id", 'assignee_username', (SELECT u."username" FROM "users" u WHERE u."id" = x."assignee_id"), 'assignee_team', x."assignee_team_id", 'assignee_team_name', (SELECT t."name" FROM "teams" t WHERE t."id" = x."assignee_team_id"), 'due_date', to_char(x."due_date", 'YYYY-MM-DD'), 'record', x."record_id", 'device', x."device_id", 'item', x."item_id")`,
  },
};
