import { type ActionStatus } from '../api/resources';

/**
 * The moves the console offers a supervisor from each status. The rules are inspection-api's
 * (`apps/inspection-api/src/actions/action-transitions.ts`, their one owner, which refuses anything else with a 400
 * or 403); a supervisor may make every move of the workflow, so this is its table, and `test/action-moves.e2e-spec.ts` checks
 * it against the API's, so a button never offers what the API would refuse.
 */
export const SUPERVISOR_MOVES: Record<ActionStatus, readonly ActionStatus[]> = {
  open: ['in_progress', 'done', 'cancelled'],
  in_progress: ['open', 'done', 'cancelled'],
  done: ['in_progress', 'verified'],
  verified: [],
  cancelled: ['open'],
};
