import { addDays, type CalendarDate, localDate, startOfDay } from '../due/due-rules';

/** What a person chose to receive (`/api/users/me/notifications/`), as the schedule reads it. */
export interface NotificationPreferences {
  /** The event types the person receives. */
  events: readonly string[];
  /** Local `HH:MM:SS` bounds of the quiet hours (nothing is sent from start until end; may span midnight), or null. */
  quietHoursStart: string | null;
  quietHoursEnd: string | null;
  /** IANA zone of the person's clock; null: the API's INSPECTION_TIME_ZONE. */
  timeZone: string | null;
  /** Local `HH:MM:SS` at which a `check.due` reminder is sent on the period's first day; null: when it falls due. */
  reminderTime: string | null;
}

/** The event as the schedule needs it: its type, when it was emitted, and a due check's period start. */
export interface NotifiableEvent {
  type: string;
  occurredAt: Date;
  /** `check.due` / `check.overdue`: the first day of the check's period. */
  periodStart?: CalendarDate;
}

const secondsOf = (time: string): number => {
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  return hours * 3600 + minutes * 60 + seconds;
};

/** The instant a local time of day is reached on a calendar day in a zone (DST-safe through `startOfDay`). */
function atLocalTime(date: CalendarDate, time: string, timeZone: string): Date {
  const start = startOfDay(date, timeZone);
  const candidate = new Date(start.getTime() + secondsOf(time) * 1000);
  // Across a DST change the day is 23 or 25 hours long: settle the wall clock time by the zone's own reading.
  const drift = secondsOf(time) - secondsSinceLocalMidnight(candidate, timeZone);
  return drift === 0 || localDate(candidate, timeZone) !== date
    ? candidate
    : new Date(candidate.getTime() + drift * 1000);
}

/** One clock formatter per zone (building one loads the zone's data). */
const clocks = new Map<string, Intl.DateTimeFormat>();

function secondsSinceLocalMidnight(instant: Date, timeZone: string): number {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (clocks.size >= 1000) clocks.clear();
    clocks.set(timeZone, clock);
  }
  const parts = clock.formatToParts(instant);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 3600 + value('minute') * 60 + value('second');
}

/**
 * When a notification of `event` reaches a person, or null when they do not receive that event. The one rule of
 * reminder timing:
 * - an event the person did not choose is not sent;
 * - `check.due` waits for the person's reminder time on the period's first day (sent at once when that has passed);
 * - anything that would arrive in the quiet hours waits until they end (the window may span midnight);
 * - never before `now`.
 * Times of day are the person's time zone, or `defaultTimeZone` (INSPECTION_TIME_ZONE).
 */
export function notificationTime(
  preferences: NotificationPreferences,
  event: NotifiableEvent,
  now: Date,
  defaultTimeZone: string,
): Date | null {
  if (!preferences.events.includes(event.type)) return null;
  const timeZone = preferences.timeZone ?? defaultTimeZone;
  let at = new Date(Math.max(now.getTime(), event.occurredAt.getTime()));
  if (event.type === 'check.due' && preferences.reminderTime !== null) {
    const day = event.periodStart ?? localDate(event.occurredAt, timeZone);
    const reminder = atLocalTime(day, preferences.reminderTime, timeZone);
    if (reminder > at) at = reminder;
  }
  return outsideQuietHours(at, preferences, timeZone);
}

/** `at`, or the end of the quiet hours `at` falls in. */
export function outsideQuietHours(
  at: Date,
  preferences: Pick<NotificationPreferences, 'quietHoursStart' | 'quietHoursEnd'>,
  timeZone: string,
): Date {
  const { quietHoursStart: start, quietHoursEnd: end } = preferences;
  if (start === null || end === null || start === end) return at;
  const clock = secondsSinceLocalMidnight(at, timeZone);
  const from = secondsOf(start);
  const until = secondsOf(end);
  const today = localDate(at, timeZone);
  if (from < until) return clock >= from && clock < until ? atLocalTime(today, end, timeZone) : at;
  // Spanning midnight: quiet from `start` to midnight (ends tomorrow) and from midnight to `end` (ends today).
  if (clock >= from) return atLocalTime(addDays(today, 1), end, timeZone);
  if (clock < until) return atLocalTime(today, end, timeZone);
  return at;
}
