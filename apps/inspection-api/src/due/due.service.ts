import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { isoTimestamp, SqlParameters } from '../database/sql';
import {
  type CalendarDate,
  type DueStatus,
  dueStatus,
  dueWindow,
  type DueWindow,
  type Frequency,
  localDate,
} from './due-rules';

export interface DueFilters {
  date?: CalendarDate;
  plan?: number;
  group?: string;
}

/** One check as `GET /api/due/` shows it. */
export interface DueCheck {
  plan: { id: number; name: string; frequency: Frequency };
  device: { id: number; code: string; name: string; group: string; location: string };
  item: { id: number; name: string } | null;
  status: DueStatus;
  period_start: CalendarDate;
  period_end: CalendarDate;
  last_record: { id: number; status: string; checked_at: string; checked_by: string } | null;
}

export interface DueSummary {
  date: CalendarDate;
  time_zone: string;
  due: number;
  overdue: number;
  done: number;
  plans: Array<{
    id: number;
    name: string;
    frequency: Frequency;
    due: number;
    overdue: number;
    done: number;
    total: number;
  }>;
}

interface DueRow {
  plan_id: number;
  plan_name: string;
  frequency: Frequency;
  device_id: number;
  device_code: string;
  device_name: string;
  device_group: string;
  device_location: string;
  device_created_at: Date;
  item_id: number | null;
  item_name: string | null;
  record_id: number | null;
  record_status: string | null;
  record_checked_at: Date | null;
  record_checked_at_text: string | null;
  record_checked_by: string | null;
  previous_done: boolean;
}

/**
 * The facts of every check of the active plans in one statement: per (plan, device, item) the last record up to
 * the end of the date (by the item's index, or the device's for a device without items) and whether the previous
 * period has a record. `$1` the end of the date, `$2..$7` the current and previous period starts of daily, weekly
 * and monthly plans.
 */
export function dueSql(window: DueWindow, filters: DueFilters) {
  const parameters = new SqlParameters();
  const asOf = parameters.add(window.asOf);
  const starts = (['daily', 'weekly', 'monthly'] as const).map((frequency) => ({
    frequency,
    start: parameters.add(window.frequencies[frequency].start),
    previous: parameters.add(window.frequencies[frequency].previousStart),
  }));
  const periodStart = `(CASE p."frequency" ${starts.map((s) => `WHEN '${s.frequency}' THEN ${s.start}::timestamptz`).join(' ')} END)`;
  const previousStart = `(CASE p."frequency" ${starts.map((s) => `WHEN '${s.frequency}' THEN ${s.previous}::timestamptz`).join(' ')} END)`;
  const conditions = ['p."active"'];
  if (filters.plan !== undefined) conditions.push(`p."id" = ${parameters.add(filters.plan)}`);
  if (filters.group !== undefined) conditions.push(`d."group" = ${parameters.add(filters.group)}`);
  // The item's records (by its (item_id, checked_at) index), or the device's for a device without items.
  const lastOf = (column: string, owner: string, when: string) =>
    `LEFT JOIN LATERAL (SELECT r."id", r."status", r."checked_at", r."checked_by" FROM "check_records" r
      WHERE ${when} AND r."${column}" = ${owner} AND r."checked_at" < ${asOf}
      ORDER BY r."checked_at" DESC LIMIT 1) "last_${column}" ON TRUE`;
  const previous = (column: string, owner: string) =>
    `EXISTS (SELECT 1 FROM "check_records" r WHERE r."${column}" = ${owner}
      AND r."checked_at" >= ${previousStart} AND r."checked_at" < ${periodStart})`;
  const last = (field: string) => `COALESCE("last_item_id"."${field}", "last_device_id"."${field}")`;
  const sql = `SELECT p."id" AS "plan_id", p."name" AS "plan_name", p."frequency",
      d."id" AS "device_id", d."code" AS "device_code", d."name" AS "device_name", d."group" AS "device_group",
      d."location" AS "device_location", d."created_at" AS "device_created_at",
      i."id" AS "item_id", i."name" AS "item_name",
      ${last('id')} AS "record_id", ${last('status')} AS "record_status",
      ${last('checked_at')} AS "record_checked_at", ${isoTimestamp(last('checked_at'))} AS "record_checked_at_text",
      ${last('checked_by')} AS "record_checked_by",
      CASE WHEN i."id" IS NULL THEN ${previous('device_id', 'd."id"')} ELSE ${previous('item_id', 'i."id"')} END
        AS "previous_done"
    FROM "check_plans" p
    JOIN "check_plan_devices" pd ON pd."plan_id" = p."id"
    JOIN "devices" d ON d."id" = pd."device_id"
    LEFT JOIN "check_items" i ON i."device_id" = d."id"
    ${lastOf('item_id', 'i."id"', 'i."id" IS NOT NULL')}
    ${lastOf('device_id', 'd."id"', 'i."id" IS NULL')}
    WHERE ${conditions.join(' AND ')}
    ORDER BY p."id", d."id", i."id" NULLS FIRST`;
  return { sql, parameters: parameters.values };
}

/** Due checks and their summary, classified by the rules of `due-rules.ts`. */
@Injectable()
export class DueService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  /** Today in the configured time zone. */
  today(now = new Date()): CalendarDate {
    return localDate(now, this.environment.INSPECTION_TIME_ZONE);
  }

  /** Every check of the active plans (filtered), in plan, device, item order. */
  async checks(filters: DueFilters): Promise<{ window: DueWindow; checks: DueCheck[] }> {
    const window = dueWindow(filters.date ?? this.today(), this.environment.INSPECTION_TIME_ZONE);
    const { sql, parameters } = dueSql(window, filters);
    const rows = await this.dataSource.query<DueRow[]>(sql, parameters);
    const checks = rows.map((row): DueCheck => {
      const { period } = window.frequencies[row.frequency];
      return {
        plan: { id: row.plan_id, name: row.plan_name, frequency: row.frequency },
        device: {
          id: row.device_id,
          code: row.device_code,
          name: row.device_name,
          group: row.device_group,
          location: row.device_location,
        },
        item: row.item_id === null ? null : { id: row.item_id, name: row.item_name ?? '' },
        status: dueStatus(
          {
            frequency: row.frequency,
            lastCheckedAt: row.record_checked_at ?? undefined,
            doneInPreviousPeriod: row.previous_done,
            deviceCreatedAt: row.device_created_at,
          },
          window,
        ),
        period_start: period.start,
        period_end: period.end,
        last_record:
          row.record_id === null
            ? null
            : {
                id: row.record_id,
                status: row.record_status ?? '',
                checked_at: row.record_checked_at_text ?? '',
                checked_by: row.record_checked_by ?? '',
              },
      };
    });
    return { window, checks };
  }

  async summary(filters: DueFilters): Promise<DueSummary> {
    const { window, checks } = await this.checks(filters);
    const summary: DueSummary = {
      date: window.date,
      time_zone: window.timeZone,
      due: 0,
      overdue: 0,
      done: 0,
      plans: [],
    };
    const plans = new Map<number, DueSummary['plans'][number]>();
    for (const check of checks) {
      let plan = plans.get(check.plan.id);
      if (!plan) {
        plan = { ...check.plan, due: 0, overdue: 0, done: 0, total: 0 };
        plans.set(plan.id, plan);
        summary.plans.push(plan);
      }
      plan[check.status] += 1;
      plan.total += 1;
      summary[check.status] += 1;
    }
    return summary;
  }
}
