/**
 * The one definition of "due" (issue 14). Everything here is plain date arithmetic on the API's configured time
 * zone (INSPECTION_TIME_ZONE); the SQL of DueService only fetches the facts this module classifies.
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

export type Frequency = 'daily' | 'weekly' | 'monthly';
export const FREQUENCIES: readonly Frequency[] = ['daily', 'weekly', 'monthly'];
export type DueStatus = 'due' | 'overdue' | 'done';
export const DUE_STATUSES: readonly DueStatus[] = ['due', 'overdue', 'done'];

/** A calendar date `YYYY-MM-DD`. */
export type CalendarDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar date (`2026-02-29` is not), or undefined. */
export function parseCalendarDate(text: string): CalendarDate | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return text;
}

const toDate = (date: CalendarDate): Date => new Date(`${date}T00:00:00Z`);
const fromDate = (date: Date): CalendarDate => date.toISOString().slice(0, 10);

/** `date` moved by `days` calendar days. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const moved = toDate(date);
  moved.setUTCDate(moved.getUTCDate() + days);
  return fromDate(moved);
}

/** The calendar date of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const value = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
  const asUtc = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a calendar day starts in a time zone (local midnight; where a DST change skips midnight, the first
 * instant of that day).
 */
export function startOfDay(date: CalendarDate, timeZone: string): Date {
  const midnightUtc = toDate(date).getTime();
  let instant = midnightUtc - zoneOffset(midnightUtc, timeZone);
  // The offset at the guess may differ from the offset at the answer (a DST change near midnight): settle it.
  for (let round = 0; round < 2; round += 1) instant = midnightUtc - zoneOffset(instant, timeZone);
  if (localDate(new Date(instant), timeZone) !== date) instant += 3_600_000; // midnight did not exist
  return new Date(instant);
}

export interface Period {
  start: CalendarDate;
  end: CalendarDate;
}

/** The period of a frequency that contains `date`. */
export function periodOf(frequency: Frequency, date: CalendarDate): Period {
  const day = toDate(date);
  switch (frequency) {
    case 'daily':
      return { start: date, end: date };
    case 'weekly': {
      const start = addDays(date, -((day.getUTCDay() + 6) % 7));
      return { start, end: addDays(start, 6) };
    }
    case 'monthly': {
      const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
      const end = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0));
      return { start: fromDate(start), end: fromDate(end) };
    }
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

/** The facts about one check the rule needs. */
export interface CheckFacts {
  frequency: Frequency;
  /** When the last record (up to the end of the date) was made, if any. */
  lastCheckedAt: Date | undefined;
  /** Whether a record was made in the previous period. */
  doneInPreviousPeriod: boolean;
  deviceCreatedAt: Date;
}

/** The status of a check as of the window's date. */
export function dueStatus(facts: CheckFacts, window: DueWindow): DueStatus {
  const { start } = window.frequencies[facts.frequency];
  if (facts.lastCheckedAt && facts.lastCheckedAt >= start && facts.lastCheckedAt < window.asOf) return 'done';
  if (!facts.doneInPreviousPeriod && facts.deviceCreatedAt < start) return 'overdue';
  return 'due';
}
