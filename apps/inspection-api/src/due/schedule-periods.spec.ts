import {
  addMonths,
  dueWindow,
  frequencyOf,
  localInstant,
  periodOf,
  type Schedule,
  scheduleBounds,
  schedulePeriod,
} from './due-rules';

const every = (count: number, unit: Schedule['unit'], extra: Partial<Schedule> = {}): Schedule => ({
  every: count,
  unit,
  starts_on: null,
  due_time: null,
  ...extra,
});

describe('schedule periods', () => {
  it('the spec words are every 1 day, ISO week and calendar month', () => {
    for (const date of ['2026-11-24', '2026-11-30', '2027-01-01', '2028-02-29', '2026-12-31']) {
      expect(schedulePeriod(every(1, 'day'), date)).toEqual(periodOf('daily', date));
      expect(schedulePeriod(every(1, 'week'), date)).toEqual(periodOf('weekly', date));
      expect(schedulePeriod(every(1, 'month'), date)).toEqual(periodOf('monthly', date));
    }
    expect(periodOf('weekly', '2027-01-01')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
    expect(periodOf('monthly', '2028-02-10')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect([frequencyOf('day'), frequencyOf('week'), frequencyOf('month'), frequencyOf('year')]).toEqual([
      'daily',
      'weekly',
      'monthly',
      'monthly',
    ]);
  });

  it('quarterly and yearly without a first day: calendar quarters and years, leap years included', () => {
    expect(schedulePeriod(every(3, 'month'), '2026-02-15')).toEqual({
      start: '2026-01-01',
      end: '2026-03-31',
    });
    expect(schedulePeriod(every(3, 'month'), '2026-03-31')).toEqual({
      start: '2026-01-01',
      end: '2026-03-31',
    });
    expect(schedulePeriod(every(3, 'month'), '2026-04-01')).toEqual({
      start: '2026-04-01',
      end: '2026-06-30',
    });
    expect(schedulePeriod(every(3, 'month'), '2026-12-31')).toEqual({
      start: '2026-10-01',
      end: '2026-12-31',
    });
    expect(schedulePeriod(every(6, 'month'), '2026-07-01')).toEqual({
      start: '2026-07-01',
      end: '2026-12-31',
    });
    expect(schedulePeriod(every(1, 'year'), '2028-02-29')).toEqual({
      start: '2028-01-01',
      end: '2028-12-31',
    });
    expect(schedulePeriod(every(1, 'year'), '2026-12-31')).toEqual({
      start: '2026-01-01',
      end: '2026-12-31',
    });
    // Every 2 years counts from 2001: 2025-2026, 2027-2028.
    expect(schedulePeriod(every(2, 'year'), '2026-06-01')).toEqual({
      start: '2025-01-01',
      end: '2026-12-31',
    });
    expect(schedulePeriod(every(2, 'year'), '2027-01-01')).toEqual({
      start: '2027-01-01',
      end: '2028-12-31',
    });
    // Dates before the default anchor work the same way.
    expect(schedulePeriod(every(3, 'month'), '1999-11-30')).toEqual({
      start: '1999-10-01',
      end: '1999-12-31',
    });
  });

  it('month ends: Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year), then Mar 31 again (no drift)', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 2)).toBe('2026-03-31');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-01-15', -13)).toBe('2024-12-15');
    const monthly = every(1, 'month', { starts_on: '2026-01-31' });
    expect(schedulePeriod(monthly, '2026-01-31')).toEqual({ start: '2026-01-31', end: '2026-02-27' });
    expect(schedulePeriod(monthly, '2026-02-27')).toEqual({ start: '2026-01-31', end: '2026-02-27' });
    expect(schedulePeriod(monthly, '2026-02-28')).toEqual({ start: '2026-02-28', end: '2026-03-30' });
    expect(schedulePeriod(monthly, '2026-03-31')).toEqual({ start: '2026-03-31', end: '2026-04-29' });
    expect(schedulePeriod(monthly, '2026-04-30')).toEqual({ start: '2026-04-30', end: '2026-05-30' });
    const leap = every(1, 'month', { starts_on: '2028-01-31' });
    expect(schedulePeriod(leap, '2028-02-29')).toEqual({ start: '2028-02-29', end: '2028-03-30' });
    const quarterly = every(3, 'month', { starts_on: '2025-11-30' });
    expect(schedulePeriod(quarterly, '2026-02-27')).toEqual({ start: '2025-11-30', end: '2026-02-27' });
    expect(schedulePeriod(quarterly, '2026-02-28')).toEqual({ start: '2026-02-28', end: '2026-05-29' });
  });

  it('yearly from a leap day: Feb 28 in common years, Feb 29 in leap years', () => {
    const yearly = every(1, 'year', { starts_on: '2024-02-29' });
    expect(schedulePeriod(yearly, '2025-02-27')).toEqual({ start: '2024-02-29', end: '2025-02-27' });
    expect(schedulePeriod(yearly, '2025-03-01')).toEqual({ start: '2025-02-28', end: '2026-02-27' });
    expect(schedulePeriod(yearly, '2028-02-29')).toEqual({ start: '2028-02-29', end: '2029-02-27' });
    expect(schedulePeriod(yearly, '2028-02-28')).toEqual({ start: '2027-02-28', end: '2028-02-28' });
  });

  it('every N days and weeks count from the first day, before it too', () => {
    const fortnight = every(2, 'week', { starts_on: '2026-11-04' }); // a Wednesday
    expect(schedulePeriod(fortnight, '2026-11-04')).toEqual({ start: '2026-11-04', end: '2026-11-17' });
    expect(schedulePeriod(fortnight, '2026-11-17')).toEqual({ start: '2026-11-04', end: '2026-11-17' });
    expect(schedulePeriod(fortnight, '2026-11-18')).toEqual({ start: '2026-11-18', end: '2026-12-01' });
    expect(schedulePeriod(fortnight, '2026-11-03')).toEqual({ start: '2026-10-21', end: '2026-11-03' });
    const tenDays = every(10, 'day', { starts_on: '2028-02-25' });
    expect(schedulePeriod(tenDays, '2028-03-05')).toEqual({ start: '2028-02-25', end: '2028-03-05' });
    expect(schedulePeriod(tenDays, '2028-03-06')).toEqual({ start: '2028-03-06', end: '2028-03-15' });
    // Default anchor 2001-01-01 is a Monday: every 2 weeks are pairs of ISO weeks.
    expect(schedulePeriod(every(2, 'week'), '2026-11-24')).toEqual({
      start: '2026-11-16',
      end: '2026-11-29',
    });
  });
});

describe('schedule instants in three time zones', () => {
  it('New York: a period starts at local midnight on both sides of a DST change', () => {
    const daily = scheduleBounds(every(1, 'day'), '2026-03-09', 'America/New_York');
    expect(daily.start.toISOString()).toBe('2026-03-09T04:00:00.000Z'); // EDT
    expect(daily.previousStart.toISOString()).toBe('2026-03-08T05:00:00.000Z'); // EST, the change day
    const weekly = scheduleBounds(every(1, 'week'), '2026-11-04', 'America/New_York');
    expect(weekly.period).toEqual({ start: '2026-11-02', end: '2026-11-08' });
    expect(weekly.start.toISOString()).toBe('2026-11-02T05:00:00.000Z'); // after fall-back
    expect(weekly.previousStart.toISOString()).toBe('2026-10-26T04:00:00.000Z');
  });

  it('New York: a due time the change skips is read with the offset before it; a repeated one as the later', () => {
    expect(localInstant('2026-03-08', '02:30:00', 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:30:00.000Z', // 03:30 EDT
    );
    expect(localInstant('2026-11-01', '01:30:00', 'America/New_York').toISOString()).toBe(
      '2026-11-01T06:30:00.000Z', // 01:30 EST, the second 01:30
    );
    const bounds = scheduleBounds(
      every(1, 'day', { due_time: '09:00:00' }),
      '2026-07-01',
      'America/New_York',
    );
    expect(bounds.dueAt?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
  });

  it('Berlin: the week of the spring-forward Sunday and a quarter across the autumn change', () => {
    const week = scheduleBounds(every(1, 'week'), '2026-03-29', 'Europe/Berlin');
    expect(week.period).toEqual({ start: '2026-03-23', end: '2026-03-29' });
    expect(week.start.toISOString()).toBe('2026-03-22T23:00:00.000Z');
    const next = scheduleBounds(every(1, 'week', { due_time: '18:00' }), '2026-03-30', 'Europe/Berlin');
    expect(next.start.toISOString()).toBe('2026-03-29T22:00:00.000Z'); // CEST
    expect(next.dueAt?.toISOString()).toBe('2026-04-05T16:00:00.000Z'); // Sunday 18:00 CEST
    const quarter = scheduleBounds(every(3, 'month'), '2026-11-15', 'Europe/Berlin');
    expect(quarter.start.toISOString()).toBe('2026-09-30T22:00:00.000Z'); // 1 October, CEST
    expect(quarter.previousStart.toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });

  it('Shanghai: yearly periods, a leap day, and the day boundary 8 hours ahead of UTC', () => {
    const yearly = scheduleBounds(every(1, 'year', { due_time: '17:30' }), '2028-02-29', 'Asia/Shanghai');
    expect(yearly.period).toEqual({ start: '2028-01-01', end: '2028-12-31' });
    expect(yearly.start.toISOString()).toBe('2027-12-31T16:00:00.000Z');
    expect(yearly.previousStart.toISOString()).toBe('2026-12-31T16:00:00.000Z');
    expect(yearly.dueAt?.toISOString()).toBe('2028-12-31T09:30:00.000Z');
  });

  it('the window compares due times with now, or with the end of a past date', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    expect(dueWindow('2026-11-24', 'UTC', now).now).toEqual(now);
    expect(dueWindow('2026-11-20', 'UTC', now).now.toISOString()).toBe('2026-11-21T00:00:00.000Z');
  });
});
