import { addDays, type CalendarDate } from '../calendar/calendar-date';
import { localDate, localInstant, localTimeOfDay, secondsOfTime } from '../calendar/zoned-time';

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
    const reminder = localInstant(day, preferences.reminderTime, timeZone);
    if (reminder > at) at = reminder;
  }
  return outsideQuietHours(at, preferences, timeZone);
}

/** The local time of the daily digest when the person has no reminder time. */
export const DEFAULT_DIGEST_TIME = '08:00:00';

/**
 * When a person's daily digest of `day` (a date of their zone) is sent: at their reminder time, or 08:00, that day,
 * moved to the end of the quiet hours when it falls in them.
 */
export function digestTime(
  preferences: NotificationPreferences,
  day: CalendarDate,
  defaultTimeZone: string,
): Date {
  const timeZone = preferences.timeZone ?? defaultTimeZone;
  const at = localInstant(day, preferences.reminderTime ?? DEFAULT_DIGEST_TIME, timeZone);
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
  const clock = localTimeOfDay(at, timeZone);
  const from = secondsOfTime(start);
  const until = secondsOfTime(end);
  const today = localDate(at, timeZone);
  if (from < until) return clock >= from && clock < until ? localInstant(today, end, timeZone) : at;
  // Spanning midnight: quiet from `start` to midnight (ends tomorrow) and from midnight to `end` (ends today).
  if (clock >= from) return localInstant(addDays(today, 1), end, timeZone);
  if (clock < until) return localInstant(today, end, timeZone);
  return at;
}
