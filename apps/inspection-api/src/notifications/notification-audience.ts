import { actionPersonSql } from '../actions/action-assignment';
import { planPersonSql } from '../plans/plan-assignment';

/**
 * Who may be told of an event (before their own choice, `notification-schedule.ts`, decides whether and when):
 * - supervisors, of every event;
 * - a check's assigned inspectors (the plan's assignees and the members of its assignee teams, `plan-assignment.ts`),
 *   of `check.due` and `check.overdue`;
 * - an action's people (its assignee, or each member of its assignee team as the team is when the notice is sent,
 *   `action-assignment.ts`), of its `action.*` events.
 * Only active people; never the platform's service accounts. As SQL: a condition on an event row `e` (columns
 * `type`, `data`) and a user row `u`; `serviceAccounts` is the SQL of a `text[]` of their usernames.
 */
export function audienceSql(serviceAccounts: string): string {
  const planId = `COALESCE(e."data"->'plan'->>'id', e."data"->>'plan')::int`;
  return `(u."is_active" AND NOT (u."username" = ANY(${serviceAccounts}::text[])) AND (
    u."role" = 'supervisor'
    OR (e."type" IN ('check.due', 'check.overdue') AND ${planPersonSql(planId, 'u."id"')})
    OR (e."type" LIKE 'action.%' AND ${actionPersonSql(`(e."data"->>'assignee')::int`, `(e."data"->>'assignee_team')::int`, 'u."id"')})))`;
}
