/**
 * The one definition of "due" (issue 14, schedules issue 25): the calendar (a plan's periods and the instants they
 * start at in the API's configured time zone, INSPECTION_TIME_ZONE) is date arithmetic here, in TypeScript
 * (`schedulePeriod`, `scheduleBounds`) and as the SQL the due statements compute it with per plan (`planPeriodsSql`;
 * `due-rules.int-spec.ts` checks that both agree); the status is `dueStatusSql`, the SQL expression DueService's
 * statements classify every check with (so a page, its count and the summary are each one statement).
 *
 * - A plan's schedule is every N days, weeks, months or years (`schedule`); the spec's `frequency` words are the
 *   schedules every 1 day, week and month (`FREQUENCY_SCHEDULES`). Periods are laid end to end from an anchor date:
 *   the plan's `starts_on`, or 2001-01-01 (a Monday and a 1 January), so that weeks are ISO weeks, months calendar
 *   months, every 3 months calendar quarters and years calendar years. A month period starts on the anchor's day of
 *   the month, or the month's last day when it is shorter (Jan 31, Feb 28 or 29, Mar 31: always counted from the
 *   anchor, so the day does not drift).
 * - Calendar days are those of the configured time zone; a period starts at local midnight of its first day.
 * - Each (active plan, device of the plan, check item of the device) is one check; a device without check items is
 *   one check of the device itself. A plan has no checks before its `starts_on`.
 * - `done`: a record of the item (of the device, for a device without items) was made in the current period, up
 *   to the end of the date asked about; any status counts (a failed check was still done).
 * - `overdue`: not done, and either no record in the previous period either while the check existed before the
 *   current period started (device created and plan started: it missed a whole period), or the period's due time
 *   (`due_time` on its last day) has passed.
 * - `due`: not done and not overdue.
 */

import {
  addDays,
  type CalendarDate,
  formatCivilDate,
  civilDate,
  dayNumber,
  toDayNumber,
} from '../calendar/calendar-date';
import { localInstant, startOfDay } from '../calendar/zoned-time';

export { addDays, type CalendarDate, parseCalendarDate } from '../calendar/calendar-date';
export { localDate, localInstant, startOfDay } from '../calendar/zoned-time';

export type Frequency = 'daily' | 'weekly' | 'monthly';
export const FREQUENCIES: readonly Frequency[] = ['daily', 'weekly', 'monthly'];
export type ScheduleUnit = 'day' | 'week' | 'month' | 'year';
export const SCHEDULE_UNITS: readonly ScheduleUnit[] = ['day', 'week', 'month', 'year'];
/** The largest `every` (a year of days; the database has the same check). */
export const MAX_EVERY = 366;

/** How often a plan's checks come round. */
export interface Schedule {
  every: number;
  unit: ScheduleUnit;
  /** The first day of the first period (and the periods' phase); null: periods aligned on DEFAULT_ANCHOR. */
  starts_on: CalendarDate | null;
  /** `HH:MM:SS`, the time of day the check is due by on the period's last day; null: by the end of the period. */
  due_time: string | null;
}

/** The anchor of a schedule without `starts_on`: a Monday and a 1 January. */
export const DEFAULT_ANCHOR: CalendarDate = '2001-01-01';

/** The schedule each spec frequency word means. */
export const FREQUENCY_SCHEDULES: Record<Frequency, Pick<Schedule, 'every' | 'unit'>> = {
  daily: { every: 1, unit: 'day' },
  weekly: { every: 1, unit: 'week' },
  monthly: { every: 1, unit: 'month' },
};

/**
 * The spec word a schedule shows as in `frequency`: its unit's word (`daily`, `weekly`, `monthly`; a yearly
 * schedule is `monthly`), so clients that know only the three words read a valid one.
 */
export function frequencyOf(unit: ScheduleUnit): Frequency {
  return unit === 'day' ? 'daily' : unit === 'week' ? 'weekly' : 'monthly';
}
export type DueStatus = 'due' | 'overdue' | 'done';
export const DUE_STATUSES: readonly DueStatus[] = ['due', 'overdue', 'done'];

export interface Period {
  start: CalendarDate;
  end: CalendarDate;
}

/** `date` moved by whole months from an anchor: the anchor's day, or the month's last day when it is shorter. */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const { year, month, day } = civilDate(toDayNumber(date));
  const index = year * 12 + (month - 1) + months;
  const target = { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
  const next =
    target.month === 12 ? { year: target.year + 1, month: 1 } : { ...target, month: target.month + 1 };
  const length = dayNumber({ ...next, day: 1 }) - dayNumber({ ...target, day: 1 });
  return fromDays(dayNumber({ ...target, day: Math.min(day, length) }));
}

const fromDays = (days: number): CalendarDate => formatCivilDate(civilDate(days));

/** The number of months of a month or year schedule, the number of days of a day or week one. */
const stepOf = ({ every, unit }: Pick<Schedule, 'every' | 'unit'>): number =>
  unit === 'week' ? 7 * every : unit === 'year' ? 12 * every : every;

/** The period of a schedule that contains `date`. */
export function schedulePeriod(
  schedule: Pick<Schedule, 'every' | 'unit'> & { starts_on?: CalendarDate | null },
  date: CalendarDate,
): Period {
  const anchor = schedule.starts_on ?? DEFAULT_ANCHOR;
  const step = stepOf(schedule);
  if (schedule.unit === 'day' || schedule.unit === 'week') {
    const offset = toDayNumber(date) - toDayNumber(anchor);
    const start = addDays(date, -(((offset % step) + step) % step));
    return { start, end: addDays(start, step - 1) };
  }
  const at = (value: CalendarDate) => civilDate(toDayNumber(value));
  const [from, to] = [at(anchor), at(date)];
  let periods = Math.floor((to.year * 12 + to.month - (from.year * 12 + from.month)) / step);
  if (addMonths(anchor, periods * step) > date) periods -= 1;
  return {
    start: addMonths(anchor, periods * step),
    end: addDays(addMonths(anchor, (periods + 1) * step), -1),
  };
}

/** The period of a frequency that contains `date`. */
export const periodOf = (frequency: Frequency, date: CalendarDate): Period =>
  schedulePeriod(FREQUENCY_SCHEDULES[frequency], date);

/** The period before the one containing `date`. */
export const previousPeriodOf = (frequency: Frequency, date: CalendarDate): Period =>
  periodOf(frequency, addDays(periodOf(frequency, date).start, -1));

/** What the due statements compute for one plan on one date (`planPeriodsSql` in SQL). */
export interface ScheduleBounds {
  period: Period;
  /** The current period starts (records at or after it are in it). */
  start: Date;
  /** The previous period starts. */
  previousStart: Date;
  /** The period's due time on its last day; null without a `due_time`. */
  dueAt: Date | null;
}

/** A schedule's period containing `date` and its instants in a time zone. */
export function scheduleBounds(schedule: Schedule, date: CalendarDate, timeZone: string): ScheduleBounds {
  const period = schedulePeriod(schedule, date);
  return {
    period,
    start: startOfDay(period.start, timeZone),
    previousStart: startOfDay(schedulePeriod(schedule, addDays(period.start, -1)).start, timeZone),
    dueAt: schedule.due_time === null ? null : localInstant(period.end, schedule.due_time, timeZone),
  };
}

export interface DueWindow {
  date: CalendarDate;
  timeZone: string;
  /** The end of `date` (exclusive): records after it do not count yet. */
  asOf: Date;
  /** The instant due times are compared with: now, or the end of `date` when that is earlier. */
  now: Date;
}

/** Everything the due query needs for a date in a time zone. */
export function dueWindow(date: CalendarDate, timeZone: string, now = new Date()): DueWindow {
  const asOf = startOfDay(addDays(date, 1), timeZone);
  return { date, timeZone, asOf, now: now < asOf ? now : asOf };
}

/**
 * The periods of the plans of alias `p` on a date, as SQL (`planPeriodsSql` columns) — the same arithmetic as
 * `schedulePeriod` and `scheduleBounds`: a `FROM`-clause tail of lateral joins giving `pp."period_start"`,
 * `pp."period_end"`, `pp."start_at"`, `pp."previous_start_at"`, `pp."due_at"` and `pp."starts_at"` (the instant
 * the plan starts; null without `starts_on`). `date` and `timeZone` are SQL expressions (parameters).
 */
export function planPeriodsSql(date: string, timeZone: string): string {
  const day = `${date}::date`;
  const months = (count: string) => `(s."anchor" + make_interval(months => ${count}))::date`;
  const byDays = `${day} - ((${day} - s."anchor") % s."step" + s."step") % s."step"`;
  const local = (value: string) => `(${value})::timestamp AT TIME ZONE ${timeZone}`;
  return `CROSS JOIN LATERAL (SELECT COALESCE(p."starts_on", DATE '${DEFAULT_ANCHOR}') AS "anchor",
      CASE p."schedule_unit" WHEN 'week' THEN 7 * p."schedule_every" WHEN 'year' THEN 12 * p."schedule_every"
        ELSE p."schedule_every" END AS "step", p."schedule_unit" IN ('day', 'week') AS "by_days") s
    CROSS JOIN LATERAL (SELECT floor(((extract(year FROM ${day}) - extract(year FROM s."anchor")) * 12
      + extract(month FROM ${day}) - extract(month FROM s."anchor")) / s."step")::int AS "guess") g
    CROSS JOIN LATERAL (SELECT g."guess" - CASE WHEN ${months('g."guess" * s."step"')} > ${day} THEN 1 ELSE 0 END AS "n") m
    CROSS JOIN LATERAL (SELECT
      CASE WHEN s."by_days" THEN ${byDays} ELSE ${months('m."n" * s."step"')} END AS "period_start",
      CASE WHEN s."by_days" THEN ${byDays} + s."step" - 1 ELSE ${months('(m."n" + 1) * s."step"')} - 1 END AS "period_end",
      CASE WHEN s."by_days" THEN ${byDays} - s."step" ELSE ${months('(m."n" - 1) * s."step"')} END AS "previous_start") pd
    CROSS JOIN LATERAL (SELECT pd."period_start", pd."period_end", ${local('pd."period_start"')} AS "start_at",
      ${local('pd."previous_start"')} AS "previous_start_at",
      CASE WHEN p."due_time" IS NULL THEN NULL ELSE ${local('pd."period_end" + p."due_time"')} END AS "due_at",
      CASE WHEN p."starts_on" IS NULL THEN NULL ELSE ${local('p."starts_on"')} END AS "starts_at") pp`;
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
  /** The period's due time (NULL: none) and the instant it is compared with (`DueWindow.now`). */
  dueAt: string;
  now: string;
}

/**
 * The status of a check as SQL (`'done' | 'overdue' | 'due'`):
 * - `done`: the last record before the end of the date is in the current period;
 * - `overdue`: otherwise, when there is no record in the previous period either — the last record is older than
 *   the previous period's start (or there is none) — and the check existed before the current period started
 *   (`deviceCreatedAt`: the later of the device's creation and the plan's start); or when the due time has passed;
 * - `due`: otherwise.
 * The last record alone decides whether the previous period had one: when it is older than the current period,
 * every record of the previous period would be at least as recent as it.
 */
export function dueStatusSql(facts: CheckFactsSql): string {
  const { deviceCreatedAt, start, previousStart, asOf, dueAt, now } = facts;
  // A record made after the date asked about does not count for it.
  const last = `(CASE WHEN ${facts.lastCheckedAt} < ${asOf} THEN ${facts.lastCheckedAt} END)`;
  return `(CASE WHEN ${last} >= ${start} THEN 'done'
    WHEN (${last} IS NULL OR ${last} < ${previousStart}) AND ${deviceCreatedAt} < ${start} THEN 'overdue'
    WHEN ${dueAt} <= ${now} THEN 'overdue'
    ELSE 'due' END)`;
}
