import {
  type CheckPlan,
  type CheckRecord,
  type DueCheck,
  type InspectionApi,
} from '../inspection-api/inspection-api.types';
import {
  answerRoundStart,
  answersOfPeriod,
  mergedAnswers,
  periodAnswers,
  periodProgress,
} from './check-progress';

const plan: DueCheck['plan'] = { id: 7, name: 'Daily rounds', frequency: 'daily' };
const device: DueCheck['device'] = { id: 3, code: 'PUMP-001', name: 'Pump', group: '', location: '' };

function check(item: number | null, status: DueCheck['status'], last?: [number, string, string]): DueCheck {
  return {
    plan,
    device,
    item: item === null ? null : { id: item, name: `item ${item}` },
    status,
    period_start: '2026-11-27',
    period_end: '2026-11-27',
    last_record: last ? { id: last[0], status: 'ok', checked_at: last[1], checked_by: last[2] } : null,
  };
}

function record(id: number, photo: string | null): CheckRecord {
  return {
    id,
    status: 'ok',
    value: '',
    note: '',
    photo,
    attachment: null,
    checked_at: '2026-11-27T08:00:00Z',
    checked_by: 'bob',
    plan: 7,
    device: 3,
    item: 1,
  };
}

describe("a check's progress from inspection-api's due checks of the period", () => {
  it('answers the done items with their last record; due, overdue and the device itself are open', () => {
    const checks = [
      check(1, 'done', [41, '2026-11-27T08:00:00Z', 'bob']),
      check(2, 'due', [12, '2026-11-26T08:00:00Z', 'bob']), // yesterday's record: a daily plan's new period
      check(3, 'overdue'),
      check(null, 'done', [43, '2026-11-27T09:00:00Z', 'bob']),
      check(4, 'done', [44, '2026-11-27T09:30:00Z', 'carol']),
    ];
    expect(answersOfPeriod(checks, [record(41, '/media/p.jpg'), record(44, null)])).toEqual({
      '1': { recordId: 41, status: 'ok', checkedAt: '2026-11-27T08:00:00Z', inspector: 'bob', photo: true },
      '4': {
        recordId: 44,
        status: 'ok',
        checkedAt: '2026-11-27T09:30:00Z',
        inspector: 'carol',
        photo: false,
      },
    });
  });

  it("keeps the conversation's key of the tap and photo for the same record; the period's newer record wins", () => {
    const kept = {
      '1': {
        recordId: 41,
        status: 'ok' as const,
        checkedAt: 'a',
        inspector: 'me',
        photo: true,
        key: 'tap-1',
      },
      '2': {
        recordId: 42,
        status: 'warn' as const,
        checkedAt: 'b',
        inspector: 'me',
        photo: false,
        key: 'tap-2',
      },
      '5': { recordId: 45, status: 'ok' as const, checkedAt: 'c', inspector: 'me', photo: false },
    };
    const period = {
      '1': { recordId: 41, status: 'ok' as const, checkedAt: 'a', inspector: 'me', photo: false },
      '2': { recordId: 50, status: 'fail' as const, checkedAt: 'd', inspector: 'carol', photo: false },
      '3': { recordId: 51, status: 'ok' as const, checkedAt: 'e', inspector: 'carol', photo: true },
    };
    expect(mergedAnswers(kept, period)).toEqual({
      '1': { ...kept['1'] },
      '2': period['2'],
      '3': period['3'],
      '5': kept['5'], // outside every plan's period: what this conversation answered
    });
    expect(mergedAnswers({}, period)).toEqual(period);
  });

  it('asks the plan and device in the period, then the records since the earliest answer (for photos)', async () => {
    const calls: string[] = [];
    const api = {
      periodChecks: (filter: { device: number; plan: number }, at: Date) => {
        calls.push(`checks ${filter.device} ${filter.plan} ${at.toISOString()}`);
        return Promise.resolve([
          check(1, 'done', [41, '2026-11-27T08:00:00Z', 'bob']),
          check(2, 'done', [42, '2026-11-27T07:00:00Z', 'bob']),
        ]);
      },
      recordsSince: (id: number, since: string) => {
        calls.push(`records ${id} ${since}`);
        return Promise.resolve([record(42, '/media/x.jpg')]);
      },
    } as unknown as InspectionApi;
    const at = new Date('2026-11-27T10:00:00Z');
    const answers = await periodAnswers(api, 3, { id: 7 } as CheckPlan, at);
    expect(calls).toEqual(['checks 3 7 2026-11-27T10:00:00.000Z', 'records 3 2026-11-27T07:00:00Z']);
    expect(answers['2']?.photo).toBe(true);
    expect(answers['1']?.photo).toBe(false);
    expect(await periodAnswers(api, 3, undefined, at)).toEqual({});
  });

  it('asks no records when nothing is done', async () => {
    const api = {
      periodChecks: () => Promise.resolve([check(1, 'due')]),
      recordsSince: () => Promise.reject(new Error('not asked')),
    } as unknown as InspectionApi;
    expect(await periodAnswers(api, 3, { id: 7 } as CheckPlan, new Date())).toEqual({});
  });

  it('gives the period start new answers must be first since; none without a plan', async () => {
    const api = {
      periodChecks: () => Promise.resolve([check(1, 'due'), check(2, 'due')]),
      recordsSince: () => Promise.reject(new Error('not asked')),
    } as unknown as InspectionApi;
    expect(await periodProgress(api, 3, { id: 7 } as CheckPlan, new Date())).toEqual({
      answers: {},
      periodStart: '2026-11-27',
    });
    expect(await periodProgress(api, 3, undefined, new Date())).toEqual({ answers: {} });
  });
});

describe('answerRoundStart', () => {
  it("is the plan's period start, else when the conversation opened the check, else nothing", () => {
    expect(answerRoundStart('2026-11-27', '2026-11-27T09:00:00.000Z')).toBe('2026-11-27');
    expect(answerRoundStart(undefined, '2026-11-27T09:00:00.000Z')).toBe('2026-11-27T09:00:00.000Z');
    expect(answerRoundStart(undefined, undefined)).toBeUndefined();
  });
});
