import fc from 'fast-check';
import { localDate, periodOf, startOfDay } from '../due/due-rules';
import {
  addDays,
  civilDate,
  dayNumber,
  daysBetween,
  FIRST_DATE,
  fromDayNumber,
  isoWeekday,
  LAST_DATE,
  monthOf,
  parseCalendarDate,
  readCalendarDate,
  toDayNumber,
} from './calendar-date';

const FIRST_DAY = toDayNumber(FIRST_DATE);
const LAST_DAY = toDayNumber(LAST_DATE);
/** Any day of the accepted range, its edges more often. */
const acceptedDay = fc.oneof(
  fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
  fc.integer({ min: FIRST_DAY, max: FIRST_DAY + 800 }),
  fc.integer({ min: LAST_DAY - 800, max: LAST_DAY }),
);

/** The date of a day number as `Date` sees it (setUTCFullYear: no 1900 mapping for years 0..99). */
function viaDate(days: number): string {
  const date = new Date(0);
  date.setUTCFullYear(1970, 0, 1 + days);
  const year = date.getUTCFullYear();
  return `${String(year).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

describe('calendar dates', () => {
  it('day numbers match the proleptic Gregorian calendar of Date over the whole range', () => {
    expect(dayNumber({ year: 1970, month: 1, day: 1 })).toBe(0);
    expect(fromDayNumber(-1)).toBe('1969-12-31');
    fc.assert(
      fc.property(acceptedDay, (days) => {
        const date = fromDayNumber(days);
        expect(date).toBe(viaDate(days));
        expect(toDayNumber(date)).toBe(days);
        expect(dayNumber(civilDate(days))).toBe(days);
        expect(parseCalendarDate(date)).toBe(date);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts 0001-01-01..9999-12-30 only; anything else is invalid or out of range', () => {
    expect(readCalendarDate('0001-01-01')).toEqual({ date: '0001-01-01' });
    expect(readCalendarDate('9999-12-30')).toEqual({ date: '9999-12-30' });
    expect(readCalendarDate('9999-12-31')).toEqual({ error: 'out_of_range' });
    expect(readCalendarDate('0000-12-31')).toEqual({ error: 'out_of_range' });
    expect(readCalendarDate('2028-02-29')).toEqual({ date: '2028-02-29' });
    for (const bad of [
      '2026-02-29',
      '2100-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-04-31',
      '2026-1-1',
      '10000-01-01',
      '+010000-01-01',
      '-0001-01-01',
      '2026-11-24T00:00',
      '',
      'today',
    ])
      expect(readCalendarDate(bad)).toEqual({ error: 'invalid' });
  });

  it('arithmetic on day numbers: addDays, daysBetween, weekdays and months across the range edges', () => {
    expect(addDays('9999-12-31', 1)).toBe('10000-01-01');
    expect(addDays('0001-01-01', -1)).toBe('0000-12-31');
    expect(addDays('0050-02-28', 1)).toBe('0050-03-01');
    expect(daysBetween('0001-01-01', '9999-12-30')).toBe(LAST_DAY - FIRST_DAY);
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('0001-01-01')).toBe(1);
    expect(monthOf('0050-02-10')).toEqual({ start: '0050-02-01', end: '0050-02-28' });
    expect(monthOf('9999-12-30')).toEqual({ start: '9999-12-01', end: '9999-12-31' });
    expect(periodOf('weekly', '9999-12-30')).toEqual({ start: '9999-12-27', end: '10000-01-02' });
    fc.assert(
      fc.property(acceptedDay, fc.integer({ min: -800, max: 800 }), (days, delta) => {
        const date = fromDayNumber(days);
        expect(daysBetween(date, addDays(date, delta))).toBe(delta);
        const week = periodOf('weekly', date);
        expect(isoWeekday(week.start)).toBe(1);
        expect(daysBetween(week.start, date)).toBeLessThan(7);
        const month = monthOf(date);
        expect(month.start.slice(0, 7)).toBe(date.slice(0, 7));
        expect(addDays(month.end, 1).slice(-2)).toBe('01');
      }),
      { numRuns: 1000 },
    );
  });

  it('every accepted day and the day after start at a local midnight of that day, in any zone', () => {
    const zones = [
      'UTC',
      'Asia/Shanghai',
      'America/New_York',
      'Pacific/Kiritimati',
      'Etc/GMT+12',
      'Asia/Kolkata',
      'America/Santiago',
    ];
    fc.assert(
      fc.property(acceptedDay, fc.constantFrom(...zones), fc.boolean(), (days, zone, next) => {
        const date = fromDayNumber(days + (next ? 1 : 0));
        const start = startOfDay(date, zone);
        expect(Number.isFinite(start.getTime())).toBe(true);
        expect(localDate(start, zone)).toBe(date);
        expect(localDate(new Date(start.getTime() - 1000), zone)).toBe(addDays(date, -1));
      }),
      { numRuns: 1500 },
    );
  });
});
