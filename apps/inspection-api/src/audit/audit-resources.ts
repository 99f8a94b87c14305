/** The resources the audit trail covers (the `resource` of an entry and of `?resource=`). */
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

/** What an entry records. */
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
