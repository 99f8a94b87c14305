import { SqlParameters } from '../database/sql';

/**
 * The statements of the PDF reports. Each report is a list of rows (`ReportRow`), read from a PostgreSQL cursor in
 * the report's order, and the totals of those same rows (one aggregate over the same statement).
 */

/** The actions a record (alias `r`) opened, as a JSON array, oldest first. */
const ACTIONS_JSON = `COALESCE((SELECT json_agg(json_build_object('id', a."id", 'title', a."title", 'status', a."status",
    'assignee', u."username", 'due_date', to_char(a."due_date", 'YYYY-MM-DD')) ORDER BY a."id")
  FROM "actions" a LEFT JOIN "users" u ON u."id" = a."assignee_id" WHERE a."record_id" = r."id"), '[]'::json)`;

/** A record's columns (alias `r`, device `d`, item `i`, plan `p`); all null for a check without a record. */
const RECORD_COLUMNS = `r."id" AS "record_id", r."checked_at", r."status", r."value", r."note", r."photo",
  r."checked_by", r."source", r."out_of_range", d."code" AS "device_code", d."name" AS "device_name",
  COALESCE(i."name", '') AS "item_name", COALESCE(i."expected_value", '') AS "expected_value",
  COALESCE(i."unit", '') AS "unit", COALESCE(p."name", '') AS "plan_name",
  CASE WHEN r."id" IS NULL THEN '[]'::json ELSE ${ACTIONS_JSON} END AS "actions"`;

export interface ReportStatement {
  /** The rows in report order. */
  sql: string;
  parameters: unknown[];
}

/** Records of a device (`$1`) made in [`$2`, `$3`), oldest first; or one record (`recordId`). */
export function recordRowsSql(scope: { recordId: number } | { deviceId: number; from: Date; to: Date }) {
  const parameters = new SqlParameters();
  const where =
    'recordId' in scope
      ? `r."id" = ${parameters.add(scope.recordId)}`
      : `r."device_id" = ${parameters.add(scope.deviceId)} AND r."checked_at" >= ${parameters.add(scope.from)}
        AND r."checked_at" < ${parameters.add(scope.to)}`;
  const sql = `SELECT ${RECORD_COLUMNS}, r."device_id" AS "check_device", r."item_id" AS "check_item"
    FROM "check_records" r
    JOIN "devices" d ON d."id" = r."device_id"
    LEFT JOIN "check_items" i ON i."id" = r."item_id"
    LEFT JOIN "check_plans" p ON p."id" = r."plan_id"
    WHERE ${where}
    ORDER BY r."checked_at", r."id"`;
  return { sql, parameters: parameters.values };
}

/**
 * A round: every check of a plan (`$1`) as the due rules count them (`src/due/due-rules.ts`: each device of the plan
 * in use × each of its items in use, a device without items being one check of the device itself), each with the
 * records that did it in [`$2`, `$3`) (a record of the item, or of the device for a device without items, whatever
 * plan it names), or one row with no record when the check was not done. By device, item, then time.
 */
export function roundRowsSql(planId: number, from: Date, to: Date): ReportStatement {
  const parameters = new SqlParameters();
  const plan = parameters.add(planId);
  const [start, end] = [parameters.add(from), parameters.add(to)];
  const sql = `WITH "checks" AS (
      SELECT d."id" AS "device_id", i."id" AS "item_id" FROM "check_plan_devices" pd
      JOIN "devices" d ON d."id" = pd."device_id" AND d."archived_at" IS NULL
      LEFT JOIN "check_items" i ON i."device_id" = d."id" AND i."archived_at" IS NULL
      WHERE pd."plan_id" = ${plan})
    SELECT ${RECORD_COLUMNS}, c."device_id" AS "check_device", c."item_id" AS "check_item"
    FROM "checks" c
    JOIN "devices" d ON d."id" = c."device_id"
    LEFT JOIN "check_items" i ON i."id" = c."item_id"
    LEFT JOIN LATERAL (
      SELECT * FROM "check_records" x WHERE c."item_id" IS NOT NULL AND x."item_id" = c."item_id"
        AND x."checked_at" >= ${start} AND x."checked_at" < ${end}
      UNION ALL
      SELECT * FROM "check_records" x WHERE c."item_id" IS NULL AND x."device_id" = c."device_id"
        AND x."checked_at" >= ${start} AND x."checked_at" < ${end}) r ON TRUE
    LEFT JOIN "check_plans" p ON p."id" = r."plan_id"
    ORDER BY d."code", d."id", i."name", c."item_id" NULLS FIRST, r."checked_at", r."id"`;
  return { sql, parameters: parameters.values };
}

/** The totals of a report's rows: records by status, photos, checks done, inspectors, actions by status. */
export function totalsSql(rows: ReportStatement): ReportStatement {
  const sql = `WITH "rows" AS MATERIALIZED (${rows.sql})
    SELECT count("record_id")::int AS "records",
      (count(*) FILTER (WHERE "status" = 'ok'))::int AS "ok",
      (count(*) FILTER (WHERE "status" = 'warn'))::int AS "warn",
      (count(*) FILTER (WHERE "status" = 'fail'))::int AS "fail",
      (count(*) FILTER (WHERE "out_of_range"))::int AS "out_of_range",
      (count("photo"))::int AS "photos",
      (count(DISTINCT ("check_device", "check_item")))::int AS "checks",
      (count(DISTINCT ("check_device", "check_item")) FILTER (WHERE "record_id" IS NOT NULL))::int AS "checks_done",
      COALESCE((SELECT json_agg(DISTINCT "checked_by") FROM "rows" WHERE "checked_by" <> ''), '[]'::json) AS "inspectors",
      COALESCE((SELECT json_object_agg(s."status", s."count") FROM (SELECT e->>'status' AS "status", count(*)::int AS "count"
        FROM "rows" CROSS JOIN json_array_elements("rows"."actions") e GROUP BY 1) s), '{}'::json) AS "actions"
    FROM "rows"`;
  return { sql, parameters: rows.parameters };
}
