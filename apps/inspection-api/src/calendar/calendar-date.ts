/**
 * Calendar dates: the one owner of reading a date from a request and of calendar arithmetic.
 *
 * - A date is accepted from `FIRST_DATE` to `LAST_DATE` (0001-01-01..9999-12-30, proleptic Gregorian). The last
 *   day of year 9999 is refused so that "the end of the date" (its next day's start) is still a four-digit date;
 *   every date-taking route reads its dates here, so anything outside the range is a 400 before any arithmetic.
 * - Arithmetic is on day numbers (days since 1970-01-01), never on strings or on `Date` (whose `Date.UTC` maps
 *   years 0..99 to 1900..1999 and whose `toISOString` writes `+010000` after year 9999). Dates computed from an
 *   accepted date (a period's start or end, the day after) may leave the range by a few weeks; they are written as
 *   `YYYY-MM-DD` with the year zero-padded to four digits (year 0 is `0000`, year 10000 is `10000`).
 */

/** A calendar date `YYYY-MM-DD`. */
export type CalendarDate = string;

export const FIRST_DATE: CalendarDate = '0001-01-01';
export const LAST_DATE: CalendarDate = '9999-12-30';

export const MS_PER_DAY = 86_400_000;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
export function dayNumber({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The proleptic Gregorian date of a day number (H. Hinnant's `civil_from_days`). */
export function civilDate(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const pad = (value: number, width: number): string => String(Math.abs(value)).padStart(width, '0');

/** `YYYY-MM-DD` of a civil date (a negative year gets a leading `-`; never produced from an accepted date). */
export function formatCivilDate({ year, month, day }: CivilDate): CalendarDate {
  return `${year < 0 ? '-' : ''}${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

const DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;

/** The day number of a date written by this module (any year), or NaN. */
export function toDayNumber(date: CalendarDate): number {
  const match = DATE.exec(date);
  if (!match) return Number.NaN;
  return dayNumber({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) });
}

export const fromDayNumber = (days: number): CalendarDate => formatCivilDate(civilDate(days));

const FIRST_DAY = toDayNumber(FIRST_DATE);
const LAST_DAY = toDayNumber(LAST_DATE);

export type DateReading = { date: CalendarDate } | { error: 'invalid' | 'out_of_range' };

/**
 * A request's date: exactly `YYYY-MM-DD` (four-digit year), a real day of the proleptic Gregorian calendar
 * (`2026-02-29` is not), within FIRST_DATE..LAST_DATE.
 */
export function readCalendarDate(text: string): DateReading {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return { error: 'invalid' };
  const civil = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const days = dayNumber(civil);
  if (civil.month < 1 || civil.month > 12 || fromDayNumber(days) !== text) return { error: 'invalid' };
  if (days < FIRST_DAY || days > LAST_DAY) return { error: 'out_of_range' };
  return { date: text };
}

/** A valid date within the accepted range, or undefined. */
export function parseCalendarDate(text: string): CalendarDate | undefined {
  const reading = readCalendarDate(text);
  return 'date' in reading ? reading.date : undefined;
}

/** The error a query filter reports for a date outside the accepted range. */
export const OUT_OF_RANGE_MESSAGE = `Enter a date from ${FIRST_DATE} to ${LAST_DATE}.`;

/** `date` moved by `days` calendar days. */
export const addDays = (date: CalendarDate, days: number): CalendarDate =>
  fromDayNumber(toDayNumber(date) + days);

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: CalendarDate, to: CalendarDate): number =>
  toDayNumber(to) - toDayNumber(from);

/** ISO weekday: 1 Monday .. 7 Sunday. */
export function isoWeekday(date: CalendarDate): number {
  const days = toDayNumber(date);
  // 1970-01-01 was a Thursday (4).
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

/** The first and last day of the month containing `date`. */
export function monthOf(date: CalendarDate): { start: CalendarDate; end: CalendarDate } {
  const { year, month } = civilDate(toDayNumber(date));
  const start = dayNumber({ year, month, day: 1 });
  const next = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  return { start: fromDayNumber(start), end: fromDayNumber(dayNumber(next) - 1) };
}

/** Milliseconds since the epoch of a civil date and time of day read as UTC (any year; no 1900 mapping). */
export function utcMilliseconds(civil: CivilDate, hour = 0, minute = 0, second = 0): number {
  return dayNumber(civil) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
}
