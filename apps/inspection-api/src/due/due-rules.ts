/**
 * The one definition of "due" (issue 14): the calendar (periods and the instants they start at in the API's
 * configured time zone, INSPECTION_TIME_ZONE) is date arithmetic here; the status is `dueStatusSql`, the SQL
 * expression DueService's statements classify every check with (so a page, its count and the summary are each one
 * statement). Both are tested in `due-rules.spec.ts`, the status on a real PostgreSQL.
 *
 * - A plan's period containing a date: `daily` that day, `weekly` the ISO week (Monday to Sunday), `monthly` the
 *   calendar month — calendar days in the configured time zone.
 * - Each (active plan, device of the plan, check item of the device) is one check; a device without check items is
 *   one check of the device itself.
 * - `done`: a record of the item (of the device, for a device without items) was made in the current period, up
 *   to the end of the date asked about; any status counts (a failed check was still done).
 * - `overdue`: not done, no record in the previous period either, and the device existed before the current
 *   period started (it missed a whole period).
 * - `due`: not done and not overdue.
 */

import {
  addDays,
  type CalendarDate,
  formatCivilDate,
  isoWeekday,
  monthOf,
  MS_PER_DAY,
  toDayNumber,
  utcMilliseconds,
} from '../calendar/calendar-date';

export { addDays, type CalendarDate, parseCalendarDate } from '../calendar/calendar-date';

export type Frequency = 'daily' | 'weekly' | 'monthly';
export const FREQUENCIES: readonly Frequency[] = ['daily', 'weekly', 'monthly'];
export type DueStatus = 'due' | 'overdue' | 'done';
export const DUE_STATUSES: readonly DueStatus[] = ['due', 'overdue', 'done'];

/**
 * One formatter per time zone: constructing an `Intl.DateTimeFormat` costs about 0.1 ms (it loads the zone's ICU
 * data), far more than formatting with it, and a due page or a statistics range needs dozens of them. It writes the
 * era, so that years before 1 (`1 BC` is year 0) read back as astronomical years.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let cached = formatters.get(timeZone);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, cached);
  }
  return cached;
}

/** The local civil date and time of an instant in a time zone (astronomical years). */
function localParts(instant: number, timeZone: string) {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const value = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
  const era = parts.find((candidate) => candidate.type === 'era')?.value;
  const year = era === 'BC' || era === 'B' ? 1 - value('year') : value('year');
  return {
    civil: { year, month: value('month'), day: value('day') },
    hour: value('hour'),
    minute: value('minute'),
    second: value('second'),
  };
}

/** The calendar date of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): CalendarDate {
  return formatCivilDate(localParts(instant.getTime(), timeZone).civil);
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const { civil, hour, minute, second } = localParts(instant, timeZone);
  return utcMilliseconds(civil, hour, minute, second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a calendar day starts in a time zone (local midnight; where a DST change skips midnight, the first
 * instant of that day).
 */
export function startOfDay(date: CalendarDate, timeZone: string): Date {
  const key = `${date} ${timeZone}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    const midnightUtc = toDayNumber(date) * MS_PER_DAY;
    let instant = midnightUtc - zoneOffset(midnightUtc, timeZone);
    // The offset at the guess may differ from the offset at the answer (a DST change near midnight): settle it.
    for (let round = 0; round < 2; round += 1) instant = midnightUtc - zoneOffset(instant, timeZone);
    if (localDate(new Date(instant), timeZone) !== date) instant += 3_600_000; // midnight did not exist
    if (dayStarts.size >= MAX_DAY_STARTS) dayStarts.clear();
    start = instant;
    dayStarts.set(key, start);
  }
  return new Date(start);
}

/**
 * Day starts already computed, by date and zone: each takes a few `formatToParts` calls, and every due request and
 * statistics range asks for the same few dozen days again.
 */
const dayStarts = new Map<string, number>();
const MAX_DAY_STARTS = 10_000;

export interface Period {
  start: CalendarDate;
  end: CalendarDate;
}

/** The period of a frequency that contains `date`. */
export function periodOf(frequency: Frequency, date: CalendarDate): Period {
  switch (frequency) {
    case 'daily':
      return { start: date, end: date };
    case 'weekly': {
      const start = addDays(date, 1 - isoWeekday(date));
      return { start, end: addDays(start, 6) };
    }
    case 'monthly':
      return monthOf(date);
  }
}

/** The period before the one containing `date`. */
export const previousPeriodOf = (frequency: Frequency, date: CalendarDate): Period =>
  periodOf(frequency, addDays(periodOf(frequency, date).start, -1));

/** The instants the database query needs for one frequency: the periods' starts, as of the end of the date. */
export interface PeriodBounds {
  period: Period;
  /** The current period starts (records at or after it are in it). */
  start: Date;
  /** The previous period starts. */
  previousStart: Date;
}

export interface DueWindow {
  date: CalendarDate;
  timeZone: string;
  /** The end of `date` (exclusive): records after it do not count yet. */
  asOf: Date;
  frequencies: Record<Frequency, PeriodBounds>;
}

/** Everything the due query needs for a date in a time zone. */
export function dueWindow(date: CalendarDate, timeZone: string): DueWindow {
  const bounds = (frequency: Frequency): PeriodBounds => {
    const period = periodOf(frequency, date);
    return {
      period,
      start: startOfDay(period.start, timeZone),
      previousStart: startOfDay(previousPeriodOf(frequency, date).start, timeZone),
    };
  };
  return {
    date,
    timeZone,
    asOf: startOfDay(addDays(date, 1), timeZone),
    frequencies: { daily: bounds('daily'), weekly: bounds('weekly'), monthly: bounds('monthly') },
  };
}

/** The SQL values the status of one check is decided from (expressions or parameters, all `timestamptz`). */
export interface CheckFactsSql {
  /** When the last record of the check was made before the end of the date asked about (NULL: never). */
  lastCheckedAt: string;
  /** When the device was created. */
  deviceCreatedAt: string;
  /** The instant the plan's current period starts (`PeriodBounds.start`). */
  start: string;
  /** The instant the previous period starts (`PeriodBounds.previousStart`). */
  previousStart: string;
  /** The end of the date asked about (`DueWindow.asOf`). */
  asOf: string;
}

/**
 * The status of a check as SQL (`'done' | 'overdue' | 'due'`):
 * - `done`: the last record before the end of the date is in the current period;
 * - `overdue`: otherwise, when there is no record in the previous period either — the last record is older than
 *   the previous period's start (or there is none) — and the device existed before the current period started;
 * - `due`: otherwise.
 * The last record alone decides whether the previous period had one: when it is older than the current period,
 * every record of the previous period would be at least as recent as it.
 */
export function dueStatusSql(facts: CheckFactsSql): string {
  const { deviceCreatedAt, start, previousStart, asOf } = facts;
  // A record made after the date asked about does not count for it.
  const last = `(CASE WHEN ${facts.lastCheckedAt} < ${asOf} THEN ${facts.lastCheckedAt} END)`;
  return `(CASE WHEN ${last} >= ${start} THEN 'done'
    WHEN (${last} IS NULL OR ${last} < ${previousStart}) AND ${deviceCreatedAt} < ${start} THEN 'overdue'
    ELSE 'due' END)`;
}
