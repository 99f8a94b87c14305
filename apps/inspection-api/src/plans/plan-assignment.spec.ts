import { isPlanPerson, planPeople } from './plan-assignment';

describe("whose a plan's checks are", () => {
  it('a plan with no assignees and no teams is nobody’s', () => {
    expect(planPeople({ assignees: [], assigneeTeams: [] })).toEqual([]);
    expect(isPlanPerson({ assignees: [], assigneeTeams: [] }, 1)).toBe(false);
  });

  it('the assignees alone, as before teams', () => {
    expect(planPeople({ assignees: [7, 3], assigneeTeams: [] })).toEqual([3, 7]);
  });

  it("a team's members count as assignees; a team without members adds nobody", () => {
    const plan = { assignees: [], assigneeTeams: [{ members: [5, 2] }, { members: [] }] };
    expect(planPeople(plan)).toEqual([2, 5]);
    expect(isPlanPerson(plan, 5)).toBe(true);
    expect(isPlanPerson(plan, 3)).toBe(false);
  });

  it('a person assigned directly and through two teams is one person (their load counts the check once)', () => {
    const plan = { assignees: [4], assigneeTeams: [{ members: [4, 9] }, { members: [9, 4, 1] }] };
    expect(planPeople(plan)).toEqual([1, 4, 9]);
  });
});
