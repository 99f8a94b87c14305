import { type Role } from '../users/role';
import { type ActionAssignment, isActionPerson } from './action-assignment';

/**
 * The corrective actions' rules, in one place (ActionsService and the comments call them):
 * - the status moves `open → in_progress → done → verified`, and any unfinished action may be `cancelled`:
 *   `open` → `in_progress` | `done` | `cancelled`; `in_progress` → `open` | `done` | `cancelled`;
 *   `done` → `in_progress` (rework) | `verified`; `cancelled` → `open` (reopened); `verified` is final;
 * - an action is assigned to a user (`assignee`), to a team (`assignee_team`), or to nobody, never to both;
 * - only the action's people (its assignee, or the members of its assignee team: `action-assignment.ts`) or a
 *   supervisor write to an action (move it, close it out, comment); a member of the assignee team may also take it:
 *   assign it to themselves, which unassigns the team;
 * - only a supervisor verifies, cancels or reopens a cancelled action, and changes what the action is (title,
 *   description, assignee, due date, priority, record);
 * - a verified action is read-only, for everyone.
 * Refusals are DRF's: 403 `{"detail": …}` for who may not, 400 `{"status": [...]}` for a move that does not exist.
 */
export const ACTION_STATUSES = ['open', 'in_progress', 'done', 'verified', 'cancelled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const ACTION_PRIORITIES = ['low', 'medium', 'high'] as const;
export type ActionPriority = (typeof ACTION_PRIORITIES)[number];

/** The statuses in which an action is still to be worked on (and can be overdue). */
export const UNFINISHED: readonly ActionStatus[] = ['open', 'in_progress'];

/** Whether the action of alias `a` is overdue on the date of parameter `today` (the one definition). */
export const actionOverdueSql = (today: string): string =>
  `(a."due_date" IS NOT NULL AND a."due_date" < ${today}::date AND a."status" IN (${UNFINISHED.map((status) => `'${status}'`).join(', ')}))`;

const MOVES: Record<ActionStatus, readonly ActionStatus[]> = {
  open: ['in_progress', 'done', 'cancelled'],
  in_progress: ['open', 'done', 'cancelled'],
  done: ['in_progress', 'verified'],
  verified: [],
  cancelled: ['open'],
};

/** Fields the assignee may write besides the status; every other field is the supervisors'. */
const ASSIGNEE_FIELDS = new Set(['status', 'close_out_note', 'close_out_photo']);

export type { ActionAssignment };

export interface ActionActor {
  userId: number;
  role: Role;
  /** The teams the actor is a member of. */
  teamIds: readonly number[];
}

export interface ActionState extends ActionAssignment {
  status: ActionStatus;
}

export type ActionDecision =
  | { allowed: true }
  | { allowed: false; status: 403; detail: string }
  | { allowed: false; status: 400; errors: Record<string, string[]> };

export const PERMISSION_DENIED = 'You do not have permission to perform this action.';
export const VERIFIED_READ_ONLY = 'A verified action is read-only.';
export const SUPERVISORS_VERIFY = 'Only a supervisor may verify an action.';
export const SUPERVISORS_CANCEL = 'Only a supervisor may cancel an action or reopen a cancelled one.';
export const SUPERVISORS_EDIT =
  'Only a supervisor may change this action; the assignee may move it and close it out.';
export const ONE_ASSIGNEE = 'Assign the action to a user or to a team, not both.';

const ALLOWED: ActionDecision = { allowed: true };
const forbidden = (detail: string): ActionDecision => ({ allowed: false, status: 403, detail });

/**
 * Who may write to the action at all (before what is written is looked at): the assignee, a member of the
 * assignee team, or a supervisor.
 */
function mayWrite(action: ActionState, actor: ActionActor): ActionDecision {
  if (action.status === 'verified') return forbidden(VERIFIED_READ_ONLY);
  if (actor.role === 'supervisor' || isActionPerson(action, actor)) return ALLOWED;
  return forbidden(PERMISSION_DENIED);
}

/** A member of the assignee team assigning the action to themselves (the team is unassigned by it). */
function isTake(action: ActionState, after: ActionAssignment, actor: ActionActor): boolean {
  return (
    action.assigneeTeamId !== null &&
    actor.teamIds.includes(action.assigneeTeamId) &&
    after.assigneeId === actor.userId &&
    after.assigneeTeamId === null
  );
}

const ASSIGNMENT_FIELDS = new Set(['assignee', 'assignee_team']);

/**
 * The assignment a write leaves (`sent`: the assignment fields the write sends): both set is a 400; the one sent
 * replaces the other (assigning a user unassigns the team, and the other way round).
 */
export function assignmentAfter(
  current: ActionAssignment,
  sent: { assignee?: number | null; assignee_team?: number | null },
): { assignment: ActionAssignment } | { errors: Record<string, string[]> } {
  const user = sent.assignee;
  const team = sent.assignee_team;
  if (user != null && team != null) return { errors: { non_field_errors: [ONE_ASSIGNEE] } };
  if (user != null) return { assignment: { assigneeId: user, assigneeTeamId: null } };
  if (team != null) return { assignment: { assigneeId: null, assigneeTeamId: team } };
  return {
    assignment: {
      assigneeId: user === null ? null : current.assigneeId,
      assigneeTeamId: team === null ? null : current.assigneeTeamId,
    },
  };
}

/** Whether `from → to` is a move of the workflow (staying in the same status is not a move). */
export const isMove = (from: ActionStatus, to: ActionStatus): boolean => MOVES[from].includes(to);

/** The moves from a status (for clients: what to offer). */
export const movesFrom = (from: ActionStatus): readonly ActionStatus[] => MOVES[from];

/**
 * A write to an existing action: `fields` are the serializer fields it changes, `to` the status asked for
 * (undefined when the status is not sent), `after` the assignment it leaves (the current one when not given).
 * DRF's order: the permission checks (403) come before the validation of the move (400).
 */
export function checkActionWrite(
  action: ActionState,
  fields: readonly string[],
  to: ActionStatus | undefined,
  actor: ActionActor,
  after: ActionAssignment = action,
): ActionDecision {
  const may = mayWrite(action, actor);
  if (!may.allowed) return may;
  const supervisor = actor.role === 'supervisor';
  const take = isTake(action, after, actor);
  if (
    !supervisor &&
    fields.some((field) => !ASSIGNEE_FIELDS.has(field) && !(take && ASSIGNMENT_FIELDS.has(field)))
  )
    return forbidden(SUPERVISORS_EDIT);
  if (to === undefined || to === action.status) return ALLOWED;
  if (!isMove(action.status, to))
    return {
      allowed: false,
      status: 400,
      errors: { status: [`An action cannot move from "${action.status}" to "${to}".`] },
    };
  if (to === 'verified' && !supervisor) return forbidden(SUPERVISORS_VERIFY);
  if ((to === 'cancelled' || action.status === 'cancelled') && !supervisor)
    return forbidden(SUPERVISORS_CANCEL);
  return ALLOWED;
}

/** A new action: supervisors open actions (a failed check opens one by itself, `openActionFor`). */
export function checkActionCreate(actor: ActionActor): ActionDecision {
  return actor.role === 'supervisor' ? ALLOWED : forbidden(PERMISSION_DENIED);
}

/** A comment: the assignee, a member of the assignee team or a supervisor, not on a verified action. */
export function checkActionComment(action: ActionState, actor: ActionActor): ActionDecision {
  return mayWrite(action, actor);
}

/** When a check record opens an action by itself, per plan (`CheckPlan.open_action_on`). */
export const OPEN_ACTION_ON = ['fail', 'warn', 'never'] as const;
export type OpenActionOn = (typeof OPEN_ACTION_ON)[number];

/**
 * Whether a record of `status` opens an action, given the settings that apply: the record's plan's, or without a
 * plan those of the active plans covering its device (the strictest wins); with none at all, the default `fail`.
 * `fail` opens one for a failed check, `warn` for a warning or a failure, `never` never.
 */
export function opensAction(status: string, settings: readonly OpenActionOn[]): boolean {
  const applied: readonly OpenActionOn[] = settings.length ? settings : ['fail'];
  return applied.some((setting) =>
    setting === 'warn' ? status === 'warn' || status === 'fail' : setting === 'fail' && status === 'fail',
  );
}

/** The priority of an action a record opened: high for a failure, medium for a warning. */
export const priorityForRecord = (status: string): ActionPriority => (status === 'fail' ? 'high' : 'medium');
