/**
 * The one definition of whose a corrective action is: its assignee (`assignee`), and for an action assigned to a
 * team (`assignee_team`) every member of that team, as the team is at the time of asking (an action is assigned to
 * a user, to a team or to nobody, never both: `action-transitions.ts`). Asked by: who may write to an action
 * (`action-transitions.ts`), a person's actions (`GET /api/actions/?assigned_to=`, the bot's "my actions"), each
 * person's load in the due summary (`due.service.ts`), and the audience of `action.*` notifications
 * (`notification-audience.ts`). Plans have the same kind of rule, `plans/plan-assignment.ts`.
 *
 * `actionPeople` and `isActionPerson` are the rule over values; `actionPeopleSql` and `actionPersonSql` are the
 * same rule as SQL, what the statements use (`action-assignment.int-spec.ts` checks that both agree).
 */

/** Who an action is assigned to: a user, a team, or nobody (never both). */
export interface ActionAssignment {
  assigneeId: number | null;
  assigneeTeamId: number | null;
}

/** A person, with the teams they are a member of now. */
export interface ActionPerson {
  userId: number;
  teamIds: readonly number[];
}

/**
 * The people whose the action is, ascending, each once: its assignee, or the members of its assignee team
 * (`teamMembers`: the members of the team `assigneeTeamId` names, ignored without one).
 */
export function actionPeople(action: ActionAssignment, teamMembers: readonly number[]): number[] {
  const people = new Set<number>();
  if (action.assigneeId !== null) people.add(action.assigneeId);
  if (action.assigneeTeamId !== null) for (const member of teamMembers) people.add(member);
  return [...people].sort((a, b) => a - b);
}

/** Whether the action is `person`'s: assigned to them, or to a team they are a member of. */
export const isActionPerson = (action: ActionAssignment, person: ActionPerson): boolean =>
  action.assigneeId === person.userId ||
  (action.assigneeTeamId !== null && person.teamIds.includes(action.assigneeTeamId));

/**
 * The rule as a relation of ("action_id", "user_id") rows, one per action and person (use it as a subquery), over
 * the actions of `actions`: the "actions" table, or a relation of its rows (columns "id", "assignee_id",
 * "assignee_team_id").
 */
export const actionPeopleSql = (actions = '"actions"'): string =>
  `(SELECT x."id" AS "action_id", x."assignee_id" AS "user_id" FROM ${actions} x WHERE x."assignee_id" IS NOT NULL
  UNION SELECT x."id", tm."user_id" FROM ${actions} x JOIN "team_members" tm ON tm."team_id" = x."assignee_team_id")`;

/**
 * The rule as a condition: the action whose assignee and assignee team are the SQL expressions `assigneeId` and
 * `assigneeTeamId` (columns of an action row, or an event's data) is the user `userId`'s.
 */
export const actionPersonSql = (assigneeId: string, assigneeTeamId: string, userId: string): string =>
  `(${assigneeId} = ${userId} OR EXISTS (SELECT 1 FROM "team_members" tm
    WHERE tm."team_id" = ${assigneeTeamId} AND tm."user_id" = ${userId}))`;
