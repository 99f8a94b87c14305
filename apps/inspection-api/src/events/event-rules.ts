import { type EventType } from './event-types';

/** The events a check record's status raises (on creation, or when a change moves it to that status). */
export function recordEvents(status: unknown, previousStatus?: unknown): EventType[] {
  if (status === previousStatus) return [];
  if (status === 'fail') return ['record.failed'];
  if (status === 'warn') return ['record.warned'];
  return [];
}

/**
 * The events a write to a corrective action raises: `action.assigned` when it gets an assignee, a user or a team (a
 * new one or another), `action.done` / `action.verified` when its status moves there.
 */
export function actionEvents(
  before: { status: string | null; assigneeId: number | null; assigneeTeamId: number | null },
  after: { status: string; assigneeId: number | null; assigneeTeamId: number | null },
): EventType[] {
  const events: EventType[] = [];
  const newUser = after.assigneeId !== null && after.assigneeId !== before.assigneeId;
  const newTeam = after.assigneeTeamId !== null && after.assigneeTeamId !== before.assigneeTeamId;
  if (newUser || newTeam) events.push('action.assigned');
  if (after.status !== before.status && after.status === 'done') events.push('action.done');
  if (after.status !== before.status && after.status === 'verified') events.push('action.verified');
  return events;
}
