/** inspection-api's representations (DRF snake_case), as the console reads them. */
export type CheckStatus = 'ok' | 'warn' | 'fail';
export type Frequency = 'daily' | 'weekly' | 'monthly';
export type Role = 'inspector' | 'supervisor';

export type ItemType = 'text' | 'number' | 'yes_no' | 'choice';

export interface CheckItem {
  id: number;
  name: string;
  description: string;
  expected_value: string;
  device: number;
  /** What the value is: free text (the spec's), a number with limits and unit, yes / no, one of the options. */
  type: ItemType;
  unit: string;
  min: number | null;
  max: number | null;
  options: string[];
}

export interface Device {
  id: number;
  name: string;
  code: string;
  location: string;
  group: string;
  created_at: string;
  check_items: CheckItem[];
}

export type ScheduleUnit = 'day' | 'week' | 'month' | 'year';
export const SCHEDULE_UNITS: readonly ScheduleUnit[] = ['day', 'week', 'month', 'year'];

/** A plan's schedule: periods of `every` units from `starts_on` (null: 2001-01-01), due by `due_time` (`HH:MM:SS`). */
export interface PlanSchedule {
  every: number;
  unit: ScheduleUnit;
  starts_on: string | null;
  due_time: string | null;
}

export type OpenActionOn = 'fail' | 'warn' | 'never';

export interface CheckPlan {
  id: number;
  name: string;
  /** The spec's word; follows the schedule (every 3 months reads `monthly`). */
  frequency: Frequency;
  active: boolean;
  devices: number[];
  has_devices: boolean;
  open_action_on: OpenActionOn;
  schedule: PlanSchedule;
  /** The ids of the users responsible for the plan's rounds. */
  assignees: number[];
  /** The ids of the teams responsible for them: every member counts as an assignee. */
  assignee_teams: number[];
}

export interface CheckRecord {
  id: number;
  status: CheckStatus;
  value: string;
  note: string;
  photo: string | null;
  attachment: string | null;
  checked_at: string;
  checked_by: string;
  plan: number | null;
  device: number;
  item: number | null;
  /** The value was outside its item's definition when written (typed items). */
  out_of_range: boolean;
}

export interface ConsoleUser {
  id: number;
  username: string;
  role: Role;
  is_active: boolean;
  date_joined?: string;
  last_login?: string | null;
}

/** A team (`/api/teams/`): actions can be assigned to it; `members` are user ids, ascending. */
export interface Team {
  id: number;
  name: string;
  members: number[];
  created_at: string;
}

export interface DrfPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type DueStatus = 'due' | 'overdue' | 'done';

export interface DueRow {
  plan: { id: number; name: string; frequency: Frequency };
  device: { id: number; code: string; name: string; group: string; location: string };
  /** null: a device without check items is one check of the device itself. */
  item: { id: number; name: string } | null;
  status: DueStatus;
  period_start: string;
  period_end: string;
  last_record: { id: number; status: CheckStatus; checked_at: string; checked_by: string } | null;
}

export interface DueCounts {
  due: number;
  overdue: number;
  done: number;
}

/** Unfinished corrective actions (open or in progress) and the overdue among them. */
export interface ActionLoad {
  open_actions: number;
  overdue_actions: number;
}

/** One person's load in `/api/due/summary/`: the checks of their plans and their unfinished actions. */
export interface AssigneeLoad extends DueCounts, ActionLoad {
  assignee: number;
  assignee_username: string;
  total: number;
}

export interface DueSummary extends DueCounts, ActionLoad {
  date: string;
  time_zone: string;
  plans: (DueCounts & { id: number; name: string; frequency: Frequency; total: number })[];
  assignees: AssigneeLoad[];
}

export interface RecordStatistics {
  interval: 'day' | 'week';
  date_from: string;
  date_to: string;
  results: { period: string; ok: number; warn: number; fail: number }[];
}

export type ActionStatus = 'open' | 'in_progress' | 'done' | 'verified' | 'cancelled';
export type ActionPriority = 'low' | 'medium' | 'high';

export interface ActionTransition {
  from: ActionStatus | null;
  to: ActionStatus;
  by: string;
  at: string;
}

/** A corrective action (`/api/actions/`). */
export interface CorrectiveAction {
  id: number;
  title: string;
  description: string;
  record: number | null;
  device: number | null;
  item: number | null;
  assignee: number | null;
  assignee_username: string | null;
  /** The team the action is assigned to, instead of a user (never both). */
  assignee_team: number | null;
  assignee_team_name: string | null;
  due_date: string | null;
  priority: ActionPriority;
  status: ActionStatus;
  overdue: boolean;
  close_out_note: string;
  close_out_photo: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
  transitions: ActionTransition[];
}

export interface ActionComment {
  id: number;
  action: number;
  text: string;
  author: string;
  created_at: string;
}

/** The resources the audit trail covers (inspection-api's `AUDIT_RESOURCES`; test/api-lists.e2e-spec.ts). */
export const AUDIT_RESOURCES = [
  'device',
  'item',
  'plan',
  'record',
  'action',
  'user',
  'report_subscription',
  'team',
] as const;
export type AuditResource = (typeof AUDIT_RESOURCES)[number];

/** What an audit entry records (inspection-api's `AUDIT_EVENTS`). */
export const AUDIT_EVENTS = [
  'created',
  'updated',
  'archived',
  'restored',
  'deleted',
  'device_added',
  'device_removed',
  'assignee_added',
  'assignee_removed',
  'commented',
  'member_added',
  'member_removed',
  'team_added',
  'team_removed',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** One entry of the audit trail (`/api/audit/`): who changed what, when, before and after. */
export interface AuditEntry {
  id: number;
  resource: AuditResource;
  resource_id: number;
  event: AuditEvent;
  actor: number | null;
  actor_username: string;
  at: string;
  changed: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * The event types webhooks and notifications carry, in inspection-api's order (its `EVENT_TYPES`, which lists a
 * person's chosen events in this order; test/api-lists.e2e-spec.ts holds the two equal).
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

/** What a person is told of and when (`/api/users/me/notifications/`; docs/protocols/notifications.md). */
export interface NotificationPreferences {
  user: number;
  events: EventType[];
  /** Local times `HH:MM:SS` in `time_zone`; both or neither. */
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  /** An IANA zone; null: the API's `INSPECTION_TIME_ZONE`. */
  time_zone: string | null;
  reminder_time: string | null;
  /** Where notification emails go; null: no email. */
  email: string | null;
  /** The language of the messages; null: English. */
  language: 'en' | 'zh-CN' | null;
  /** Whether a daily digest email is sent (with an `email`). */
  email_digest: boolean;
  /** Whether the chosen events are also sent in the chat. */
  chat: boolean;
  /** null while the person has chosen nothing (their role's defaults apply). */
  updated_at: string | null;
}

/** A webhook endpoint (`/api/webhooks/`); `secret` is in the creation answer only. */
export interface Webhook {
  id: number;
  url: string;
  events: EventType[];
  active: boolean;
  created_at: string;
  created_by: string;
  failing_since: string | null;
  disabled_reason: string;
  secret?: string;
}

/** One monthly send of a report subscription. */
export interface ReportSubscriptionSend {
  month: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_error: string;
  report: string | null;
  sent_at: string | null;
}

/** A monthly report emailed to a list (`/api/report-subscriptions/`). */
export interface ReportSubscription {
  id: number;
  recipients: string[];
  plan: number | null;
  device: number | null;
  language: 'en' | 'zh-CN';
  time_zone: string;
  day_of_month: number;
  send_time: string;
  active: boolean;
  created_at: string;
  created_by: string;
  next_send_at: string | null;
  next_month: string | null;
  last_send: ReportSubscriptionSend | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One delivery of an event to an endpoint (`/api/webhooks/{id}/deliveries/`). */
export interface WebhookDelivery {
  id: string;
  event: string;
  event_type: EventType;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string;
  created_at: string;
  last_attempt_at: string | null;
  delivered_at: string | null;
}
