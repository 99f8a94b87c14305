import { type AuditEntry, type AuditResource } from '../api/resources';

/** The console's resource (react-admin's name, plural) of an audit trail resource. */
export const AUDIT_RESOURCE_NAMES: Record<AuditResource, string> = {
  device: 'devices',
  item: 'items',
  plan: 'plans',
  record: 'records',
  action: 'actions',
  user: 'users',
  report_subscription: 'report-subscriptions',
  team: 'teams',
};

/**
 * Fields a person does not read as a change: ids, bookkeeping timestamps, the token cut-off a password change moves,
 * sign-ins, and `archived_at` (the `archived` / `restored` event says it).
 */
const BOOKKEEPING = new Set([
  'id',
  'created_at',
  'updated_at',
  'tokens_valid_after',
  'archived_at',
  'is_staff',
  'last_login',
  'date_joined',
]);

/**
 * Fields a creation does not list: the references the page itself shows (the record an action came from, a record's
 * device, item and plan) and who created it (the entry's own actor).
 */
const SHOWN_ELSEWHERE = new Set(['device', 'item', 'record', 'plan', 'created_by', 'password_changed']);

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * What an entry shows under its event line, in the trail's order: an update's changed fields a person reads; a
 * creation's fields that were given a value (its "after").
 */
export function shownChanges(entry: AuditEntry): string[] {
  if (entry.event === 'created')
    return Object.keys(entry.after ?? {}).filter(
      (field) => !BOOKKEEPING.has(field) && !SHOWN_ELSEWHERE.has(field) && !isEmpty(entry.after?.[field]),
    );
  if (entry.event !== 'updated') return [];
  return entry.changed.filter((field) => !BOOKKEEPING.has(field));
}

/** Translation keys of a field's coded values (status words, priorities, roles, frequencies). */
export function valueKey(resource: AuditResource, field: string): string | undefined {
  if (field === 'status') return resource === 'action' ? 'console.action_status' : 'console.status';
  if (field === 'priority') return 'console.priority';
  if (field === 'role') return 'console.role';
  if (field === 'frequency') return 'console.frequency';
  if (field === 'open_action_on') return 'console.open_action_on';
  if (field === 'schedule_unit') return 'console.schedule.unit';
  return undefined;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const LONGEST = 120;

/**
 * One before / after value as text: `—` for nothing, yes / no, coded values in words, timestamps in local time,
 * long text shortened. References (assignee, device) are resolved by the caller.
 */
export function auditValueText(
  resource: AuditResource,
  field: string,
  value: unknown,
  translate: (key: string, options?: object) => string,
  dateTime: Intl.DateTimeFormat,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  const key = valueKey(resource, field);
  if (key && typeof value === 'string') return translate(`${key}.${value}`, { _: value });
  if (typeof value === 'string' && TIMESTAMP.test(value)) {
    const time = new Date(value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
    if (!Number.isNaN(time.getTime())) return dateTime.format(time);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text;
}
