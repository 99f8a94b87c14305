/**
 * Local dates and times in a time zone: the one owner of turning an instant into a zone's local date and time of
 * day, and a local date and time back into an instant (the due rules, the notification schedule and the statistics
 * all read zones here). IANA zones through `Intl.DateTimeFormat`; daylight saving changes are settled as
 * PostgreSQL's `timestamp AT TIME ZONE` settles them, so the SQL the due statements use agrees with this.
 */

import {
  type CalendarDate,
  formatCivilDate,
  MS_PER_DAY,
  toDayNumber,
  utcMilliseconds,
} from './calendar-date';

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

/**
 * The instant a local date and time happen in a time zone; a time a DST change skips is read with the offset
 * before the change (as PostgreSQL reads `timestamp AT TIME ZONE`): 02:30 on a spring-forward night is 03:30.
 */
export function localInstant(date: CalendarDate, time: string, timeZone: string): Date {
  const wall = toDayNumber(date) * MS_PER_DAY + secondsOfTime(time) * 1000;
  const guess = wall - zoneOffset(wall, timeZone);
  // The offsets in force before and after any change near the wall time (changes are months apart).
  const [before, after] = [
    zoneOffset(guess - 6 * 3_600_000, timeZone),
    zoneOffset(guess + 6 * 3_600_000, timeZone),
  ];
  for (const offset of [after, before])
    if (zoneOffset(wall - offset, timeZone) === offset) return new Date(wall - offset);
  return new Date(wall - before); // skipped by the change: read with the offset before it
}

/** Seconds since local midnight of an instant in a time zone (the local time of day, 0 to 86399). */
export function localTimeOfDay(instant: Date, timeZone: string): number {
  const { hour, minute, second } = localParts(instant.getTime(), timeZone);
  return (hour * 60 + minute) * 60 + second;
}

/** Seconds since midnight of a local time of day written `HH:MM` or `HH:MM:SS`. */
export function secondsOfTime(time: string): number {
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  return (hour * 60 + minute) * 60 + second;
}
