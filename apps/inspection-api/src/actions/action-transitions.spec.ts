import {
  ACTION_STATUSES,
  type ActionActor,
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

const SUPERVISOR: ActionActor = { userId: 1, role: 'supervisor' };
const ASSIGNEE: ActionActor = { userId: 2, role: 'inspector' };
const OTHER: ActionActor = { userId: 3, role: 'inspector' };
const action = (status: ActionStatus) => ({ status, assigneeId: ASSIGNEE.userId });

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
    const unassigned = { status: 'open' as const, assigneeId: null };
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
