import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { SqlParameters } from '../database/sql';
import { validationError } from '../drf/exceptions';
import { addDays, type CalendarDate, daysBetween, FIRST_DATE } from '../calendar/calendar-date';
import { localDate, periodOf, startOfDay } from '../due/due-rules';
import { actionOverdueSql } from '../actions/action-transitions';

export type StatisticsInterval = 'day' | 'week';
export const INTERVALS: readonly StatisticsInterval[] = ['day', 'week'];

/** The longest range asked at once, in periods (a bound on the statement's arrays). */
export const MAX_PERIODS = 1_000;

export interface StatisticsFilters {
  interval: StatisticsInterval;
  dateFrom?: CalendarDate;
  dateTo?: CalendarDate;
  plan?: number;
  group?: string;
  device?: number;
}

export interface RecordStatistics {
  interval: StatisticsInterval;
  date_from: CalendarDate;
  date_to: CalendarDate;
  results: Array<{ period: CalendarDate; ok: number; warn: number; fail: number }>;
}

interface Buckets {
  /** Each period's label: its day, or the Monday of its ISO week. */
  labels: CalendarDate[];
  /** Where each period starts (the first one at the start of the range), then the end of the range. */
  bounds: Date[];
}

/** How many periods the range spans: days, or ISO weeks touched (both ends included). */
function periodCount(interval: StatisticsInterval, from: CalendarDate, to: CalendarDate): number {
  if (interval === 'day') return daysBetween(from, to) + 1;
  return daysBetween(periodOf('weekly', from).start, periodOf('weekly', to).start) / 7 + 1;
}

/**
 * The periods of the range in the configured time zone, weeks clipped to the range: `count` of them (computed on
 * day numbers beforehand, so the loop is bounded whatever the dates).
 */
function buckets(
  interval: StatisticsInterval,
  from: CalendarDate,
  to: CalendarDate,
  count: number,
  timeZone: string,
): Buckets {
  const labels: CalendarDate[] = [];
  const bounds: Date[] = [];
  const firstWeek = periodOf('weekly', from).start;
  for (let index = 0; index < count; index += 1) {
    const label = interval === 'day' ? addDays(from, index) : addDays(firstWeek, 7 * index);
    labels.push(label);
    bounds.push(startOfDay(index === 0 ? from : label, timeZone));
  }
  bounds.push(startOfDay(addDays(to, 1), timeZone));
  return { labels, bounds };
}

/** Counts of records per day or ISO week and status. */
@Injectable()
export class StatisticsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  /** One statement: the records of the range bucketed by `width_bucket` over the periods' start instants. */
  async records(filters: StatisticsFilters): Promise<RecordStatistics> {
    const timeZone = this.environment.INSPECTION_TIME_ZONE;
    const to = filters.dateTo ?? localDate(new Date(), timeZone);
    // The default start: 29 days earlier, but not before the first accepted date.
    const from = filters.dateFrom ?? (daysBetween(FIRST_DATE, to) < 29 ? FIRST_DATE : addDays(to, -29));
    if (daysBetween(from, to) < 0) throw validationError({ date_to: ['Must not be before date_from.'] });
    const count = periodCount(filters.interval, from, to);
    if (count > MAX_PERIODS)
      throw validationError({ date_from: [`The range may span at most ${MAX_PERIODS} periods.`] });
    const { labels, bounds } = buckets(filters.interval, from, to, count, timeZone);
    const parameters = new SqlParameters();
    const starts = parameters.add(bounds.slice(0, -1));
    const conditions = [
      `r."checked_at" >= ${parameters.add(bounds[0])}`,
      `r."checked_at" < ${parameters.add(bounds[bounds.length - 1])}`,
    ];
    if (filters.plan !== undefined) conditions.push(`r."plan_id" = ${parameters.add(filters.plan)}`);
    if (filters.device !== undefined) conditions.push(`r."device_id" = ${parameters.add(filters.device)}`);
    if (filters.group !== undefined)
      conditions.push(
        `r."device_id" IN (SELECT d."id" FROM "devices" d WHERE d."group" = ${parameters.add(filters.group)})`,
      );
    const sql = `WITH counted AS (
        SELECT width_bucket(r."checked_at", ${starts}::timestamptz[]) AS "bucket",
          count(*) FILTER (WHERE r."status" = 'ok') AS "ok",
          count(*) FILTER (WHERE r."status" = 'warn') AS "warn",
          count(*) FILTER (WHERE r."status" = 'fail') AS "fail"
        FROM "check_records" r WHERE ${conditions.join(' AND ')} GROUP BY 1)
      SELECT COALESCE(json_agg(json_build_object('period', b."period", 'ok', COALESCE(c."ok", 0),
          'warn', COALESCE(c."warn", 0), 'fail', COALESCE(c."fail", 0)) ORDER BY b."bucket"), '[]'::json) AS "results"
      FROM unnest(${parameters.add(labels)}::text[]) WITH ORDINALITY AS b("period", "bucket")
      LEFT JOIN counted c ON c."bucket" = b."bucket"`;
    const [row] = await this.dataSource.query<Array<{ results: RecordStatistics['results'] }>>(
      sql,
      parameters.values,
    );
    return { interval: filters.interval, date_from: from, date_to: to, results: row?.results ?? [] };
  }

  /** Corrective actions by status, the overdue ones, and each assignee's load (one statement). */
  async actions(filters: ActionStatisticsFilters): Promise<object> {
    const timeZone = this.environment.INSPECTION_TIME_ZONE;
    const today = localDate(new Date(), timeZone);
    const { sql, parameters } = actionStatisticsSql(today, filters);
    const [row] = await this.dataSource.query<Array<{ totals: object; assignees: unknown[] }>>(
      sql,
      parameters,
    );
    return { date: today, time_zone: timeZone, ...row?.totals, assignees: row?.assignees ?? [] };
  }
}

export interface ActionStatisticsFilters {
  device?: number;
  group?: string;
}

/**
 * `GET /api/statistics/actions/` in one statement: the actions counted per assignee and status first (with the
 * overdue among them), a few rows per assignee, read from `actions_load_idx` when PostgreSQL finds that cheaper than
 * the table; then the totals and each assignee's load summed from those groups.
 */
export function actionStatisticsSql(today: CalendarDate, filters: ActionStatisticsFilters) {
  const parameters = new SqlParameters();
  const overdue = actionOverdueSql(parameters.add(today));
  const conditions: string[] = [];
  if (filters.device !== undefined) conditions.push(`a."device_id" = ${parameters.add(filters.device)}`);
  if (filters.group !== undefined)
    conditions.push(
      `a."device_id" IN (SELECT d."id" FROM "devices" d WHERE d."group" = ${parameters.add(filters.group)})`,
    );
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const total = (column: string, status?: string) =>
    `COALESCE(sum(g."${column}")${status ? ` FILTER (WHERE g."status" = '${status}')` : ''}, 0)::int`;
  const sql = `WITH "groups" AS MATERIALIZED (
      SELECT a."assignee_id", a."status", count(*) AS "actions", count(*) FILTER (WHERE ${overdue}) AS "overdue"
      FROM "actions" a ${where} GROUP BY a."assignee_id", a."status")
    SELECT (SELECT json_build_object('total', ${total('actions')}, 'open', ${total('actions', 'open')},
        'in_progress', ${total('actions', 'in_progress')}, 'done', ${total('actions', 'done')},
        'verified', ${total('actions', 'verified')}, 'cancelled', ${total('actions', 'cancelled')},
        'overdue', ${total('overdue')}) FROM "groups" g) AS "totals",
      COALESCE((SELECT json_agg(json_build_object('assignee', l."assignee_id", 'assignee_username', u."username",
          'open', l."open", 'in_progress', l."in_progress", 'done', l."done", 'overdue', l."overdue")
          ORDER BY l."assignee_id" NULLS FIRST)
        FROM (SELECT g."assignee_id", ${total('actions', 'open')} AS "open",
            ${total('actions', 'in_progress')} AS "in_progress", ${total('actions', 'done')} AS "done",
            ${total('overdue')} AS "overdue"
          FROM "groups" g WHERE g."status" IN ('open', 'in_progress', 'done') GROUP BY g."assignee_id") l
        LEFT JOIN "users" u ON u."id" = l."assignee_id"), '[]'::json) AS "assignees"`;
  return { sql, parameters: parameters.values };
}
