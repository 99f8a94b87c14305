/**
 * The one definition of whose a plan's checks are (issue 25): the plan's assignees (users, `assignees`) and every
 * member of its assignee teams (`assignee_teams`), each person once, as the teams are at the time of asking. The
 * due rules ask it for the inspector's own checks (`GET /api/due/?assignee=`), each person's load in the due
 * summary, and the audience of `check.due` / `check.overdue` reminders (`notification-audience.ts`).
 *
 * `planPeople` is the rule over values; `PLAN_PEOPLE_SQL` and `planPersonSql` are the same rule as SQL, what the
 * statements use (`plan-assignment.int-spec.ts` checks that both agree).
 */

/** A plan's assignment as its representation gives it, with its teams' members. */
export interface PlanAssignment {
  assignees: readonly number[];
  assigneeTeams: ReadonlyArray<{ members: readonly number[] }>;
}

/** The people whose the plan's checks are: its assignees and its teams' members, ascending, each once. */
export function planPeople(plan: PlanAssignment): number[] {
  const people = new Set<number>(plan.assignees);
  for (const team of plan.assigneeTeams) for (const member of team.members) people.add(member);
  return [...people].sort((a, b) => a - b);
}

/** Whether the checks of `plan` are `person`'s. */
export const isPlanPerson = (plan: PlanAssignment, person: number): boolean =>
  planPeople(plan).includes(person);

/** The rule as a relation of ("plan_id", "user_id") rows, one per plan and person (use it as a subquery). */
export const PLAN_PEOPLE_SQL = `(SELECT pa."plan_id", pa."user_id" FROM "check_plan_assignees" pa
  UNION SELECT pt."plan_id", tm."user_id" FROM "check_plan_teams" pt JOIN "team_members" tm ON tm."team_id" = pt."team_id")`;

/** The rule as a condition: the checks of the plan `planId` (an SQL expression) are the user `userId`'s. */
export const planPersonSql = (planId: string, userId: string): string =>
  `(EXISTS (SELECT 1 FROM "check_plan_assignees" pa WHERE pa."plan_id" = ${planId} AND pa."user_id" = ${userId})
    OR EXISTS (SELECT 1 FROM "check_plan_teams" pt JOIN "team_members" tm ON tm."team_id" = pt."team_id"
      WHERE pt."plan_id" = ${planId} AND tm."user_id" = ${userId}))`;
