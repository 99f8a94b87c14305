import { type CorrectiveAction } from '../api/resources';

type Translate = (key: string, options?: object) => string;

/** Who an action is assigned to, as people read it: the user, the team (marked as one), or "Unassigned". */
export function assigneeText(
  action: Pick<CorrectiveAction, 'assignee_username' | 'assignee_team_name'>,
  translate: Translate,
): string {
  if (action.assignee_username) return action.assignee_username;
  if (action.assignee_team_name)
    return translate('console.actions.team_assignee', { name: action.assignee_team_name });
  return translate('console.actions.unassigned');
}
