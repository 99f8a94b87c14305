import {
  ACTION_STATUSES,
  type ActionActor,
  assignmentAfter,
  ONE_ASSIGNEE,
  type ActionStatus,
  checkActionComment,
  checkActionCreate,
  checkActionWrite,
  isMove,
  opensAction,
  PERMISSION_DENIED,
  priorityForRecord,
  SUPERVISORS_CANCEL,
  SUPERVISORS_EDIT,
  SUPERVISORS_VERIFY,
  VERIFIED_READ_ONLY,
} from './action-transitions';

const SUPERVISOR: ActionActor = { userId: 1, role: 'supervisor', teamIds: [] };
const ASSIGNEE: ActionActor = { userId: 2, role: 'inspector', teamIds: [] };
const OTHER: ActionActor = { userId: 3, role: 'inspector', teamIds: [8] };
const ALLOWED = { allowed: true };
const action = (status: ActionStatus) => ({ status, assigneeId: ASSIGNEE.userId, assigneeTeamId: null });

/** Every (from, to) pair of the workflow, and who may make it. */
const MOVES: Array<[ActionStatus, ActionStatus, 'anyone' | 'supervisor']> = [
  ['open', 'in_progress', 'anyone'],
  ['open', 'done', 'anyone'],
  ['open', 'cancelled', 'supervisor'],
  ['in_progress', 'open', 'anyone'],
  ['in_progress', 'done', 'anyone'],
  ['in_progress', 'cancelled', 'supervisor'],
  ['done', 'in_progress', 'anyone'],
  ['done', 'verified', 'supervisor'],
  ['cancelled', 'open', 'supervisor'],
];

describe('action transitions', () => {
  const pairs = ACTION_STATUSES.flatMap((from) => ACTION_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s is a move only when the workflow has it', (from, to) => {
    const expected = MOVES.some(([a, b]) => a === from && b === to);
    expect(isMove(from, to)).toBe(expected);
  });

  it.each(MOVES)(
    '%s → %s: a supervisor may; the assignee only when not supervisors-only',
    (from, to, who) => {
      expect(checkActionWrite(action(from), ['status'], to, SUPERVISOR)).toEqual({ allowed: true });
      const byAssignee = checkActionWrite(action(from), ['status'], to, ASSIGNEE);
      if (who === 'anyone') expect(byAssignee).toEqual({ allowed: true });
      else
        expect(byAssignee).toEqual({
          allowed: false,
          status: 403,
          detail: to === 'verified' ? SUPERVISORS_VERIFY : SUPERVISORS_CANCEL,
        });
    },
  );

  it.each(MOVES)('%s → %s: refused (403) to an inspector who is not the assignee', (from, to) => {
    expect(checkActionWrite(action(from), ['status'], to, OTHER)).toEqual({
      allowed: false,
      status: 403,
      detail: PERMISSION_DENIED,
    });
  });

  it.each(pairs.filter(([from, to]) => from !== 'verified' && from !== to && !isMove(from, to)))(
    '%s → %s is a 400 keyed by status, even for a supervisor',
    (from, to) => {
      expect(checkActionWrite(action(from), ['status'], to, SUPERVISOR)).toEqual({
        allowed: false,
        status: 400,
        errors: { status: [`An action cannot move from "${from}" to "${to}".`] },
      });
    },
  );

  it('a verified action is read-only for everyone: no move, no edit, no comment (403)', () => {
    const verified = action('verified');
    for (const actor of [SUPERVISOR, ASSIGNEE, OTHER]) {
      for (const to of ACTION_STATUSES)
        expect(checkActionWrite(verified, ['status'], to, actor)).toEqual({
          allowed: false,
          status: 403,
          detail: VERIFIED_READ_ONLY,
        });
      expect(checkActionWrite(verified, ['title'], undefined, actor)).toMatchObject({ status: 403 });
      expect(checkActionWrite(verified, [], undefined, actor)).toMatchObject({ status: 403 });
      expect(checkActionComment(verified, actor)).toMatchObject({ status: 403, detail: VERIFIED_READ_ONLY });
    }
  });

  it('the same status is no move; the assignee closes out but does not change what the action is', () => {
    expect(checkActionWrite(action('open'), ['status'], 'open', ASSIGNEE)).toEqual({ allowed: true });
    expect(
      checkActionWrite(
        action('in_progress'),
        ['status', 'close_out_note', 'close_out_photo'],
        'done',
        ASSIGNEE,
      ),
    ).toEqual({ allowed: true });
    for (const field of ['title', 'description', 'assignee', 'due_date', 'priority', 'record'])
      expect(checkActionWrite(action('open'), [field], undefined, ASSIGNEE)).toEqual({
        allowed: false,
        status: 403,
        detail: SUPERVISORS_EDIT,
      });
    expect(checkActionWrite(action('open'), ['title', 'assignee'], undefined, SUPERVISOR)).toEqual({
      allowed: true,
    });
  });

  it('an unassigned action: only supervisors write to it', () => {
    const unassigned = { status: 'open' as const, assigneeId: null, assigneeTeamId: null };
    expect(checkActionWrite(unassigned, ['status'], 'in_progress', ASSIGNEE)).toMatchObject({ status: 403 });
    expect(checkActionWrite(unassigned, ['status'], 'in_progress', SUPERVISOR)).toEqual({ allowed: true });
  });

  it('permission comes before validation (DRF: 403 before 400)', () => {
    expect(checkActionWrite(action('open'), ['status'], 'verified', OTHER)).toMatchObject({ status: 403 });
    expect(checkActionWrite(action('open'), ['title', 'status'], 'verified', ASSIGNEE)).toMatchObject({
      status: 403,
      detail: SUPERVISORS_EDIT,
    });
  });

  it('supervisors open actions; the assignee and supervisors comment', () => {
    expect(checkActionCreate(SUPERVISOR)).toEqual({ allowed: true });
    expect(checkActionCreate(ASSIGNEE)).toMatchObject({ status: 403 });
    expect(checkActionComment(action('open'), ASSIGNEE)).toEqual({ allowed: true });
    expect(checkActionComment(action('done'), SUPERVISOR)).toEqual({ allowed: true });
    expect(checkActionComment(action('open'), OTHER)).toMatchObject({
      status: 403,
      detail: PERMISSION_DENIED,
    });
  });
});

describe('actions assigned to a team', () => {
  const TEAM = 7;
  const MEMBER: ActionActor = { userId: 4, role: 'inspector', teamIds: [TEAM] };
  const teamAction = (status: ActionStatus = 'open') => ({ status, assigneeId: null, assigneeTeamId: TEAM });

  it("is the team's members' to move, close out and comment on; not other inspectors'", () => {
    expect(checkActionWrite(teamAction(), ['status', 'close_out_note'], 'done', MEMBER)).toEqual(ALLOWED);
    expect(checkActionComment(teamAction(), MEMBER)).toEqual(ALLOWED);
    expect(checkActionWrite(teamAction(), ['status'], 'done', OTHER)).toEqual({
      allowed: false,
      status: 403,
      detail: PERMISSION_DENIED,
    });
    expect(checkActionComment(teamAction(), ASSIGNEE)).toMatchObject({ status: 403 });
    expect(checkActionWrite(teamAction('done'), ['status'], 'verified', MEMBER)).toMatchObject({
      status: 403,
      detail: SUPERVISORS_VERIFY,
    });
  });

  it('a member may take it (assign it to themselves), not give it to someone else', () => {
    const taken = { assigneeId: MEMBER.userId, assigneeTeamId: null };
    const fields = ['assignee', 'assignee_team'];
    expect(checkActionWrite(teamAction(), fields, undefined, MEMBER, taken)).toEqual(ALLOWED);
    expect(checkActionWrite(teamAction(), [...fields, 'status'], 'in_progress', MEMBER, taken)).toEqual(
      ALLOWED,
    );
    const other = { assigneeId: ASSIGNEE.userId, assigneeTeamId: null };
    expect(checkActionWrite(teamAction(), fields, undefined, MEMBER, other)).toMatchObject({
      status: 403,
      detail: SUPERVISORS_EDIT,
    });
    const cleared = { assigneeId: null, assigneeTeamId: null };
    expect(checkActionWrite(teamAction(), ['assignee_team'], undefined, MEMBER, cleared)).toMatchObject({
      status: 403,
    });
    // Taking is for the team's actions: the assignee of a user's action cannot hand it to a team.
    const toTeam = { assigneeId: null, assigneeTeamId: TEAM };
    expect(checkActionWrite(action('open'), fields, undefined, ASSIGNEE, toTeam)).toMatchObject({
      status: 403,
    });
    expect(checkActionWrite(teamAction(), ['title'], undefined, MEMBER, taken)).toMatchObject({
      status: 403,
      detail: SUPERVISORS_EDIT,
    });
  });

  it('a verified team action is read-only for its members too', () => {
    expect(checkActionComment(teamAction('verified'), MEMBER)).toMatchObject({
      status: 403,
      detail: VERIFIED_READ_ONLY,
    });
  });

  it('is a user, a team or nobody: both at once is a 400; the one sent replaces the other', () => {
    const current = { assigneeId: null, assigneeTeamId: TEAM };
    expect(assignmentAfter(current, { assignee: 2, assignee_team: 7 })).toEqual({
      errors: { non_field_errors: [ONE_ASSIGNEE] },
    });
    expect(assignmentAfter(current, { assignee: 2 })).toEqual({
      assignment: { assigneeId: 2, assigneeTeamId: null },
    });
    expect(assignmentAfter({ assigneeId: 2, assigneeTeamId: null }, { assignee_team: 9 })).toEqual({
      assignment: { assigneeId: null, assigneeTeamId: 9 },
    });
    expect(assignmentAfter(current, { assignee: 2, assignee_team: null })).toEqual({
      assignment: { assigneeId: 2, assigneeTeamId: null },
    });
    expect(assignmentAfter(current, { assignee: null })).toEqual({ assignment: current });
    expect(assignmentAfter(current, { assignee_team: null })).toEqual({
      assignment: { assigneeId: null, assigneeTeamId: null },
    });
    expect(assignmentAfter(current, {})).toEqual({ assignment: current });
  });
});

describe('which records open an action', () => {
  it.each([
    ['fail', ['fail'], true],
    ['warn', ['fail'], false],
    ['ok', ['fail'], false],
    ['fail', ['warn'], true],
    ['warn', ['warn'], true],
    ['ok', ['warn'], false],
    ['fail', ['never'], false],
    ['warn', ['never'], false],
    ['fail', [], true], // no plan applies: the default, on fail
    ['warn', [], false],
    ['warn', ['never', 'warn'], true], // several plans cover the device: the strictest
    ['fail', ['never', 'never'], false],
  ] as const)('a %s record with %j opens one: %s', (status, settings, expected) => {
    expect(opensAction(status, settings)).toBe(expected);
  });

  it('gives a failure high priority and a warning medium', () => {
    expect(priorityForRecord('fail')).toBe('high');
    expect(priorityForRecord('warn')).toBe('medium');
  });
});
