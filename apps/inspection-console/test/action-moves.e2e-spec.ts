// In the e2e tier because it runs inspection-api's own rules in Node next to the console's table (the console's src/
// is type-checked as browser code, without the API's types).
import { ACTION_STATUSES, checkActionWrite, movesFrom } from '@fieldops/inspection-api';
import { SUPERVISOR_MOVES } from '../src/actions/action-moves';

describe('the moves the console offers a supervisor', () => {
  const supervisor = { userId: 1, role: 'supervisor' as const, teamIds: [] };

  it.each(ACTION_STATUSES)('from %s: exactly the moves inspection-api allows a supervisor', (from) => {
    const allowed = ACTION_STATUSES.filter(
      (to) =>
        to !== from &&
        checkActionWrite({ status: from, assigneeId: null, assigneeTeamId: null }, ['status'], to, supervisor)
          .allowed,
    );
    expect([...SUPERVISOR_MOVES[from]].sort()).toEqual([...allowed].sort());
    expect([...SUPERVISOR_MOVES[from]].sort()).toEqual([...movesFrom(from)].sort());
  });
});
