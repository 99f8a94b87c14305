import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { actionPeopleSql, actionPersonSql } from '../actions/action-assignment';
import { actionOverdueSql, UNFINISHED } from '../actions/action-transitions';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { isoTimestamp, SqlParameters } from '../database/sql';
import { PLAN_PEOPLE_SQL, planPersonSql } from '../plans/plan-assignment';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import {
  type CalendarDate,
  type DueStatus,
  dueStatusSql,
  dueWindow,
  type DueWindow,
  type Frequency,
  localDate,
  planPeriodsSql,
} from './due-rules';

export interface DueFilters {
  date?: CalendarDate;
  plan?: number;
  /** Only the checks of this device. */
  device?: number;
  group?: string;
  /** Only the checks of plans assigned to this user, or to a team of theirs (`plan-assignment.ts`). */
  assignee?: number;
  status?: DueStatus;
}

export interface DueSummary {
  date: CalendarDate;
  time_zone: string;
  due: number;
  overdue: number;
  done: number;
  /** Unfinished corrective actions (open or in progress), and those among them due before the date. */
  open_actions: number;
  overdue_actions: number;
  plans: Array<{
    id: number;
    name: string;
    frequency: Frequency;
    due: number;
    overdue: number;
    done: number;
    total: number;
  }>;
  /**
   * Each assignee's load: the checks of the plans assigned to them or to a team of theirs (`plan-assignment.ts`; a
   * check in two of their plans counts twice) and the unfinished actions that are theirs: assigned to them or to a
   * team of theirs (`action-assignment.ts`).
   */
  assignees: Array<{
    assignee: number;
    assignee_username: string;
    due: number;
    overdue: number;
    done: number;
    total: number;
    open_actions: number;
    overdue_actions: number;
  }>;
}

/** A value as compact JSON text (`null` for NULL), escaped as PostgreSQL's JSON functions escape strings. */
const json = (value: string): string => `COALESCE(to_json(${value})::text, 'null')`;

/**
 * The CTEs `plan_periods` (each active plan's current period on the window's date, `planPeriodsSql`, computed once
 * per plan) and `checks`: every check of those plans (filtered), one row per (plan, device of the plan, check item of
 * the device; a device without items is one check), without its status. Archived plans, devices and items have none;
 * nor has a plan before its `starts_on`.
 */
function checksCte(window: DueWindow, filters: DueFilters, parameters: SqlParameters): string {
  const date = parameters.add(window.date);
  const plans = [
    'p."active"',
    'p."archived_at" IS NULL',
    `(p."starts_on" IS NULL OR p."starts_on" <= ${date}::date)`,
  ];
  if (filters.plan !== undefined) plans.push(`p."id" = ${parameters.add(filters.plan)}`);
  if (filters.assignee !== undefined) plans.push(planPersonSql('p."id"', parameters.add(filters.assignee)));
  const devices = ['d."archived_at" IS NULL'];
  if (filters.device !== undefined) devices.push(`d."id" = ${parameters.add(filters.device)}`);
  if (filters.group !== undefined) devices.push(`d."group" = ${parameters.add(filters.group)}`);
  return `"plan_periods" AS MATERIALIZED (
      SELECT p."id", p."name", p."frequency", pp.*, '[' || COALESCE((SELECT string_agg(pa."user_id"::text, ',' ORDER BY pa."user_id")
        FROM "check_plan_assignees" pa WHERE pa."plan_id" = p."id"), '') || ']' AS "assignees",
        '[' || COALESCE((SELECT string_agg('{"id":' || t."id" || ',"name":' || ${json('t."name"')} || ',"members":['
          || COALESCE((SELECT string_agg(tm."user_id"::text, ',' ORDER BY tm."user_id") FROM "team_members" tm WHERE tm."team_id" = t."id"), '')
          || ']}', ',' ORDER BY t."id") FROM "check_plan_teams" pt JOIN "teams" t ON t."id" = pt."team_id" WHERE pt."plan_id" = p."id"), '')
          || ']' AS "assignee_teams" FROM "check_plans" p
      ${planPeriodsSql(date, `${parameters.add(window.timeZone)}::text`)}
      WHERE ${plans.join(' AND ')}),
    "checks" AS (
      SELECT p."id" AS "plan_id", p."name" AS "plan_name", p."frequency", p."assignees", p."assignee_teams", p."period_start", p."period_end",
        p."start_at", p."previous_start_at", p."due_at", GREATEST(d."created_at", p."starts_at") AS "since",
        d."id" AS "device_id", d."code" AS "device_code", d."name" AS "device_name", d."group" AS "device_group",
        d."location" AS "device_location", i."id" AS "item_id", i."name" AS "item_name"
      FROM "plan_periods" p
      JOIN "check_plan_devices" pd ON pd."plan_id" = p."id"
      JOIN "devices" d ON d."id" = pd."device_id"
      LEFT JOIN "check_items" i ON i."device_id" = d."id" AND i."archived_at" IS NULL
      WHERE ${devices.join(' AND ')})`;
}

/**
 * What classifies the checks of alias `c` (columns of `checks`) in the window: a join giving `l."last_checked_at"`,
 * the time of the check's last record before the end of the date (an index-only probe of the item's
 * (item_id, checked_at) index, or the device's for a device without items; `OFFSET 0` keeps it one probe however
 * often the status refers to it), and the status (`dueStatusSql`). `asOf` is the window's end.
 */
function classification(window: DueWindow, parameters: SqlParameters, asOf: string) {
  const lastOf = (column: string, owner: string) =>
    `(SELECT max(r."checked_at") FROM "check_records" r WHERE r."${column}" = ${owner} AND r."checked_at" < ${asOf})`;
  const join = `LEFT JOIN LATERAL (SELECT CASE WHEN c."item_id" IS NULL THEN ${lastOf('device_id', 'c."device_id"')}
      ELSE ${lastOf('item_id', 'c."item_id"')} END AS "last_checked_at" OFFSET 0) l ON TRUE`;
  const status = dueStatusSql({
    lastCheckedAt: 'l."last_checked_at"',
    deviceCreatedAt: 'c."since"',
    start: 'c."start_at"',
    previousStart: 'c."previous_start_at"',
    asOf,
    dueAt: 'c."due_at"',
    now: `${parameters.add(window.now)}::timestamptz`,
  });
  return { join, status };
}

const CHECK_ORDER = 'c."plan_id", c."device_id", c."item_id" NULLS FIRST';

/**
 * `GET /api/due/`'s page in one statement: the count and the page's checks as compact JSON text. With a status
 * filter every check is classified (to count and page the matching ones); without one only the page's checks are.
 */
export function duePageSql(window: DueWindow, filters: DueFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  const asOf = parameters.add(window.asOf);
  const checks = checksCte(window, filters, parameters);
  const { join, status } = classification(window, parameters, asOf);
  const classified = `SELECT c.*, ${status} AS "status" FROM "checks" c ${join}`;
  const page = `LIMIT ${Math.trunc(limit)} OFFSET ${parameters.add(offset)}`;
  let ctes: string;
  let count: string;
  let pageRows: string;
  if (filters.status === undefined) {
    ctes = checks;
    count = 'SELECT count(*) FROM "checks"';
    pageRows = `${classified.replace('FROM "checks" c', `FROM (SELECT * FROM "checks" c ORDER BY ${CHECK_ORDER} ${page}) c`)}`;
  } else {
    ctes = `${checks}, "classified" AS MATERIALIZED (${classified})`;
    const matching = `FROM "classified" c WHERE c."status" = ${parameters.add(filters.status)}`;
    count = `SELECT count(*) ${matching}`;
    pageRows = `SELECT * ${matching} ORDER BY ${CHECK_ORDER} ${page}`;
  }
  // The page's last records themselves (id, status, inspector): by the same indexes, newest first.
  const lastRecord = (column: string, owner: string, when: string) =>
    `LEFT JOIN LATERAL (SELECT r."id", r."status", r."checked_at", r."checked_by" FROM "check_records" r
      WHERE ${when} AND r."${column}" = ${owner} AND r."checked_at" < ${asOf}
      ORDER BY r."checked_at" DESC, r."id" DESC LIMIT 1) "last_${column}" ON TRUE`;
  const last = (field: string) => `COALESCE("last_item_id"."${field}", "last_device_id"."${field}")`;
  const check = `'{"plan":{"id":' || c."plan_id" || ',"name":' || ${json('c."plan_name"')} || ',"frequency":' || ${json('c."frequency"')}
    || ',"assignees":' || c."assignees" || ',"assignee_teams":' || c."assignee_teams" || '},"device":{"id":' || c."device_id" || ',"code":' || ${json('c."device_code"')} || ',"name":' || ${json('c."device_name"')}
    || ',"group":' || ${json('c."device_group"')} || ',"location":' || ${json('c."device_location"')}
    || '},"item":' || CASE WHEN c."item_id" IS NULL THEN 'null' ELSE '{"id":' || c."item_id" || ',"name":' || ${json('c."item_name"')} || '}' END
    || ',"status":' || ${json('c."status"')} || ',"period_start":' || ${json('c."period_start"')} || ',"period_end":' || ${json('c."period_end"')}
    || ',"due_at":' || ${json(isoTimestamp('c."due_at"'))}
    || ',"last_record":' || CASE WHEN ${last('id')} IS NULL THEN 'null' ELSE '{"id":' || ${last('id')} || ',"status":' || ${json(last('status'))}
      || ',"checked_at":' || ${json(isoTimestamp(last('checked_at')))} || ',"checked_by":' || ${json(last('checked_by'))} || '}' END
    || '}'`;
  const sql = `WITH ${ctes}
    SELECT (${count})::int AS "count",
      COALESCE((SELECT '[' || string_agg(${check}, ',' ORDER BY ${CHECK_ORDER}) || ']'
        FROM (${pageRows}) c
        ${lastRecord('item_id', 'c."item_id"', 'c."item_id" IS NOT NULL')}
        ${lastRecord('device_id', 'c."device_id"', 'c."item_id" IS NULL')}), '[]') AS "results"`;
  return { sql, parameters: parameters.values };
}

/**
 * The CTEs `action_set`, the unfinished corrective actions (with whether each is overdue on the window's date,
 * `actionOverdueSql`, the one definition), and `action_load`, their count per person whose they are
 * (`action-assignment.ts`: the assignee, or each current member of the assignee team; an unassigned action is
 * nobody's load). The summary's filters apply through the action's device (`plan`: a device of the plan; `device`:
 * that device; `group`: the device's group) and its people (`assignee`: the actions that are that person's).
 */
function actionLoadCte(window: DueWindow, filters: DueFilters, parameters: SqlParameters): string {
  const conditions = [`a."status" IN (${UNFINISHED.map((status) => `'${status}'`).join(', ')})`];
  if (filters.plan !== undefined)
    conditions.push(
      `a."device_id" IN (SELECT pd."device_id" FROM "check_plan_devices" pd WHERE pd."plan_id" = ${parameters.add(filters.plan)})`,
    );
  if (filters.device !== undefined) conditions.push(`a."device_id" = ${parameters.add(filters.device)}`);
  if (filters.group !== undefined)
    conditions.push(
      `a."device_id" IN (SELECT d."id" FROM "devices" d WHERE d."group" = ${parameters.add(filters.group)})`,
    );
  if (filters.assignee !== undefined)
    conditions.push(
      actionPersonSql('a."assignee_id"', 'a."assignee_team_id"', parameters.add(filters.assignee)),
    );
  const overdue = actionOverdueSql(parameters.add(window.date));
  return `"action_set" AS MATERIALIZED (
      SELECT a."id", a."assignee_id", a."assignee_team_id", ${overdue} AS "overdue"
      FROM "actions" a WHERE ${conditions.join(' AND ')}),
    "action_load" AS (
      SELECT ap."user_id", count(*)::int AS "open_actions", (count(*) FILTER (WHERE s."overdue"))::int AS "overdue_actions"
      FROM "action_set" s JOIN ${actionPeopleSql('"action_set"')} ap ON ap."action_id" = s."id" GROUP BY ap."user_id")`;
}

/**
 * `GET /api/due/summary/` in one statement: the status counts per plan (plans with checks, by id), the unfinished
 * and overdue actions, and each assignee's load (of checks and of actions; users by id).
 */
export function dueSummarySql(window: DueWindow, filters: DueFilters) {
  const parameters = new SqlParameters();
  const asOf = parameters.add(window.asOf);
  const checks = checksCte(window, filters, parameters);
  const { join, status } = classification(window, parameters, asOf);
  const actions = actionLoadCte(window, filters, parameters);
  const counts = `(count(*) FILTER (WHERE c."status" = 'due'))::int AS "due",
      (count(*) FILTER (WHERE c."status" = 'overdue'))::int AS "overdue",
      (count(*) FILTER (WHERE c."status" = 'done'))::int AS "done", count(*)::int AS "total"`;
  const sql = `WITH ${checks}, "classified" AS MATERIALIZED (SELECT c.*, ${status} AS "status" FROM "checks" c ${join}),
    "check_load" AS (SELECT pa."user_id", ${counts}
      FROM "classified" c JOIN ${PLAN_PEOPLE_SQL} pa ON pa."plan_id" = c."plan_id" GROUP BY pa."user_id"),
    ${actions}
    SELECT COALESCE((SELECT json_agg(x ORDER BY x."id") FROM (SELECT c."plan_id" AS "id", c."plan_name" AS "name", c."frequency", ${counts}
      FROM "classified" c GROUP BY c."plan_id", c."plan_name", c."frequency") x), '[]') AS "plans",
    (SELECT count(*)::int FROM "action_set") AS "open_actions",
    (SELECT (count(*) FILTER (WHERE s."overdue"))::int FROM "action_set" s) AS "overdue_actions",
    COALESCE((SELECT json_agg(y ORDER BY y."assignee") FROM (SELECT u."id" AS "assignee", u."username" AS "assignee_username",
        COALESCE(k."due", 0) AS "due", COALESCE(k."overdue", 0) AS "overdue", COALESCE(k."done", 0) AS "done",
        COALESCE(k."total", 0) AS "total", COALESCE(l."open_actions", 0) AS "open_actions",
        COALESCE(l."overdue_actions", 0) AS "overdue_actions"
      FROM "check_load" k FULL JOIN "action_load" l ON l."user_id" = k."user_id"
      JOIN "users" u ON u."id" = COALESCE(k."user_id", l."user_id")) y), '[]') AS "assignees"`;
  return { sql, parameters: parameters.values };
}

/** Due checks and their summary, classified in SQL by the rule of `due-rules.ts`. */
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

  private window(filters: DueFilters): DueWindow {
    return dueWindow(filters.date ?? this.today(), this.environment.INSPECTION_TIME_ZONE);
  }

  /** One page of the checks (filtered), in plan, device, item order: one statement (two for `page=last`). */
  page(filters: DueFilters, request: PageRequest): Promise<PageRows<string> & { page: number }> {
    const window = this.window(filters);
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = duePageSql(window, filters, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<string>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? '[]' };
    });
  }

  async summary(filters: DueFilters): Promise<DueSummary> {
    const window = this.window(filters);
    const { sql, parameters } = dueSummarySql(window, filters);
    const [row] = await this.dataSource.query<
      Array<Pick<DueSummary, 'plans' | 'assignees' | 'open_actions' | 'overdue_actions'>>
    >(sql, parameters);
    const plans = row?.plans ?? [];
    const summary: DueSummary = {
      date: window.date,
      time_zone: window.timeZone,
      due: 0,
      overdue: 0,
      done: 0,
      open_actions: row?.open_actions ?? 0,
      overdue_actions: row?.overdue_actions ?? 0,
      plans,
      assignees: row?.assignees ?? [],
    };
    for (const plan of plans) {
      summary.due += plan.due;
      summary.overdue += plan.overdue;
      summary.done += plan.done;
    }
    return summary;
  }
}
