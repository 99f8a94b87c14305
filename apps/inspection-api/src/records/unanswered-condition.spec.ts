import { DrfException } from '../drf/exceptions';
import { alreadyAnswered, answerLockKey, unansweredConditionOf } from './unanswered-condition';

const json = (data: unknown) => ({ kind: 'json' as const, data });
const form = (value: string) => ({
  kind: 'form' as const,
  data: new Map([['if_unanswered_since', ['ignored', value]]]),
});

function refusal(run: () => unknown): { status: number; body: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof DrfException) return { status: error.getStatus(), body: error.getResponse() };
    throw error;
  }
  throw new Error('no refusal');
}

describe('the first answer to an item wins (if_unanswered_since)', () => {
  it('reads the instant as DRF reads a DateTimeField (no zone: UTC), from JSON or the last form value', () => {
    expect(unansweredConditionOf(json({ if_unanswered_since: '2026-11-27T08:00:00+01:00' }), 'UTC')).toEqual({
      since: '2026-11-27T08:00:00+01:00',
    });
    expect(unansweredConditionOf(json({ if_unanswered_since: '2026-11-27T08:00' }), 'UTC')).toEqual({
      since: '2026-11-27T08:00:00+00:00',
    });
    expect(unansweredConditionOf(form('2026-11-27T07:00:00Z'), 'UTC')).toEqual({
      since: '2026-11-27T07:00:00+00:00',
    });
  });

  it('reads a date alone as the start of that day in the API time zone (a due period_start)', () => {
    const condition = (zone: string) =>
      unansweredConditionOf(json({ if_unanswered_since: '2026-11-27' }), zone);
    expect(condition('UTC')).toEqual({ since: '2026-11-27T00:00:00.000Z' });
    expect(condition('Asia/Shanghai')).toEqual({ since: '2026-11-26T16:00:00.000Z' });
    expect(condition('America/New_York')).toEqual({ since: '2026-11-27T05:00:00.000Z' });
  });

  it('absent, null or empty: no condition (an unconditional create, such as a confirmed "as well")', () => {
    expect(unansweredConditionOf(json({ status: 'ok' }), 'UTC')).toBeUndefined();
    expect(unansweredConditionOf(json({ if_unanswered_since: null }), 'UTC')).toBeUndefined();
    expect(unansweredConditionOf(json({ if_unanswered_since: '' }), 'UTC')).toBeUndefined();
    expect(unansweredConditionOf(json([1, 2]), 'UTC')).toBeUndefined();
  });

  it.each([['yesterday'], [42], [true], [{}], ['2026-13-01T00:00:00Z'], ['2026-02-30']])(
    'refuses %j with a 400 keyed by the field',
    (value) => {
      const { status, body } = refusal(() =>
        unansweredConditionOf(json({ if_unanswered_since: value }), 'UTC'),
      );
      expect(status).toBe(400);
      expect(Object.keys(body as object)).toEqual(['if_unanswered_since']);
    },
  );

  it('a refused answer is a 409 naming the instant, with the record that answered it', () => {
    const record = { id: 7, status: 'ok', checked_by: 'alice' };
    const error = alreadyAnswered('2026-11-27T00:00:00+00:00', record);
    expect(error.getStatus()).toBe(409);
    expect(error.getResponse()).toEqual({
      detail: 'This item already has a record since 2026-11-27T00:00:00+00:00.',
      code: 'already_answered',
      record,
    });
  });

  it('locks per device and item', () => {
    expect(answerLockKey(1, 2)).not.toBe(answerLockKey(1, 3));
    expect(answerLockKey(1, 2)).not.toBe(answerLockKey(12, 2));
  });
});
