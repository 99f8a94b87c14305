import { actionPeople, isActionPerson } from './action-assignment';

describe('whose an action is', () => {
  const teams: Record<number, number[]> = { 7: [2, 5], 8: [] };
  const people = (assigneeId: number | null, assigneeTeamId: number | null) =>
    actionPeople(
      { assigneeId, assigneeTeamId },
      assigneeTeamId === null ? [] : (teams[assigneeTeamId] ?? []),
    );
  const person = (userId: number) => ({
    userId,
    teamIds: Object.keys(teams)
      .map(Number)
      .filter((team) => teams[team]?.includes(userId)),
  });

  it('an unassigned action is nobody’s', () => {
    expect(people(null, null)).toEqual([]);
    expect(isActionPerson({ assigneeId: null, assigneeTeamId: null }, person(2))).toBe(false);
  });

  it("a user's action is the user's alone", () => {
    expect(people(3, null)).toEqual([3]);
    expect(isActionPerson({ assigneeId: 3, assigneeTeamId: null }, person(3))).toBe(true);
    expect(isActionPerson({ assigneeId: 3, assigneeTeamId: null }, person(2))).toBe(false);
  });

  it("a team's action is each current member's, and nobody else's; a team without members adds nobody", () => {
    expect(people(null, 7)).toEqual([2, 5]);
    expect(isActionPerson({ assigneeId: null, assigneeTeamId: 7 }, person(5))).toBe(true);
    expect(isActionPerson({ assigneeId: null, assigneeTeamId: 7 }, person(3))).toBe(false);
    expect(people(null, 8)).toEqual([]);
  });

  it('the members given count only for an action that has a team', () => {
    expect(actionPeople({ assigneeId: 3, assigneeTeamId: null }, [2, 5])).toEqual([3]);
  });

  it('each person once, ascending', () => {
    expect(actionPeople({ assigneeId: 5, assigneeTeamId: 7 }, [9, 5, 1])).toEqual([1, 5, 9]);
  });
});
