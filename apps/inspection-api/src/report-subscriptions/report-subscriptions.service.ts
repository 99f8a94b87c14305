import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { audited } from '../audit/audit-actor';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { isoTimestamp } from '../database/sql';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { pythonStr, pythonTypeName } from '../drf/python-text';
import { type ResourceRequest, type ResourceService } from '../drf/resource-routes';
import { type Input, readDrfBoolean } from '../drf/serializer';
import { isEmailAddress, isTimeZone } from '../notifications/notification-preferences.service';
import { REPORT_LANGUAGES } from '../reports/report-text';
import { nextMonthlySend } from './monthly-schedule';

/** The most addresses one subscription sends to. */
export const MAX_RECIPIENTS = 20;

const REQUIRED = 'This field is required.';
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?$/;
const TIME_FORMAT = 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].';

const LAST_SEND_JSON = `(SELECT json_build_object('month', to_char(x."month", 'YYYY-MM'), 'status', x."status",
    'attempts', x."attempts", 'last_error', x."last_error", 'report', x."report_id",
    'sent_at', ${isoTimestamp('x."sent_at"')})
  FROM "report_subscription_sends" x WHERE x."subscription_id" = s."id" ORDER BY x."month" DESC LIMIT 1)`;

const SUBSCRIPTION_JSON = `json_build_object('id', s."id", 'recipients', to_json(s."recipients"), 'plan', s."plan_id",
  'device', s."device_id", 'language', s."language", 'time_zone', s."time_zone", 'day_of_month', s."day_of_month",
  'send_time', to_char(s."send_time", 'HH24:MI:SS'), 'active', s."active",
  'created_at', ${isoTimestamp('s."created_at"')}, 'created_by', s."created_by", 'last_send', ${LAST_SEND_JSON})`;

/** A subscription as the API shows it (`next_send_at` added from the schedule rule). */
interface SubscriptionBody {
  id: number;
  active: boolean;
  time_zone: string;
  day_of_month: number;
  send_time: string;
  next_send_at?: string | null;
  next_month?: string | null;
}

interface SubscriptionValues {
  recipients?: string[];
  plan?: number | null;
  device?: number | null;
  language?: string;
  time_zone?: string;
  day_of_month?: number;
  send_time?: string;
  active?: boolean;
}

/** The JSON or form input as field → value (a form's `recipients` may repeat). */
function fieldsOf(input: Input): Record<string, unknown> {
  if (input.kind === 'json') {
    if (input.data === null || typeof input.data !== 'object' || Array.isArray(input.data))
      throw validationError({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(input.data)}.`],
      });
    return input.data as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for (const [name, values] of input.data)
    fields[name] = name === 'recipients' ? values : (values[values.length - 1] ?? '');
  return fields;
}

/** A primary key as DRF's PrimaryKeyRelatedField reads it: undefined when it is not one. */
function toPk(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : undefined;
}

/**
 * Monthly report subscriptions (`/api/report-subscriptions/`, supervisors): the previous month's PDF of a plan's
 * round or a device's history, emailed to a list on a day and time of a zone. Sending is MonthlyReports'.
 */
@Injectable()
export class ReportSubscriptionsService implements ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  /** Adds when the next send is due (null while inactive). */
  private shown(body: SubscriptionBody, now = new Date()): SubscriptionBody {
    if (!body.active) return { ...body, next_send_at: null, next_month: null };
    const next = nextMonthlySend(
      { dayOfMonth: body.day_of_month, sendTime: body.send_time, timeZone: body.time_zone },
      now,
    );
    return { ...body, next_send_at: next.sendAt.toISOString(), next_month: next.month.start.slice(0, 7) };
  }

  page(request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const [row] = await this.dataSource.query<Array<PageRows<SubscriptionBody[]>>>(
        `SELECT (SELECT count(*) FROM "report_subscriptions")::int AS "count",
           COALESCE((SELECT json_agg(${SUBSCRIPTION_JSON} ORDER BY s."id") FROM (SELECT * FROM "report_subscriptions" ORDER BY "id" LIMIT $1 OFFSET $2) s), '[]'::json) AS "results"`,
        [limit, offset],
      );
      const now = new Date();
      return { count: row?.count ?? 0, results: (row?.results ?? []).map((body) => this.shown(body, now)) };
    });
  }

  async findOne(id: number): Promise<unknown> {
    const rows: Array<{ body: SubscriptionBody }> = await this.dataSource.query(
      `SELECT ${SUBSCRIPTION_JSON} AS "body" FROM "report_subscriptions" s WHERE s."id" = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return this.shown(rows[0].body);
  }

  async create(readInput: () => Input, request: ResourceRequest): Promise<unknown> {
    const values = await this.validate(readInput(), false, undefined);
    const id = await audited(this.dataSource, request.user, async (manager) => {
      const rows: Array<{ id: number }> = await manager.query(
        `INSERT INTO "report_subscriptions" ("recipients", "plan_id", "device_id", "language", "time_zone",
          "day_of_month", "send_time", "active", "created_by") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id"`,
        [
          values.recipients,
          values.plan ?? null,
          values.device ?? null,
          values.language ?? 'en',
          values.time_zone ?? this.environment.INSPECTION_TIME_ZONE,
          values.day_of_month ?? 1,
          values.send_time ?? '07:00:00',
          values.active ?? true,
          request.user?.username ?? '',
        ],
      );
      return rows[0]?.id ?? 0;
    });
    return this.findOne(id);
  }

  async update(id: number, readInput: () => Input, partial: boolean, request: ResourceRequest) {
    const current = await this.dataSource.query<Array<{ plan_id: number | null; device_id: number | null }>>(
      `SELECT "plan_id", "device_id" FROM "report_subscriptions" WHERE "id" = $1`,
      [id],
    );
    if (!current[0]) throw notFound();
    const values = await this.validate(readInput(), partial, current[0]);
    const assignments: string[] = [];
    const parameters: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      parameters.push(value);
      assignments.push(`"${column}" = $${parameters.length}`);
    };
    if (values.recipients !== undefined) set('recipients', values.recipients);
    if (values.plan !== undefined) set('plan_id', values.plan);
    if (values.device !== undefined) set('device_id', values.device);
    if (values.language !== undefined) set('language', values.language);
    if (values.time_zone !== undefined) set('time_zone', values.time_zone);
    if (values.day_of_month !== undefined) set('day_of_month', values.day_of_month);
    if (values.send_time !== undefined) set('send_time', values.send_time);
    if (values.active !== undefined) set('active', values.active);
    if (assignments.length)
      await audited(this.dataSource, request.user, (manager) =>
        manager.query(
          `UPDATE "report_subscriptions" SET ${assignments.join(', ')} WHERE "id" = $1`,
          parameters,
        ),
      );
    return this.findOne(id);
  }

  async remove(id: number, request: ResourceRequest): Promise<void> {
    const rows: unknown[] = await audited(this.dataSource, request.user, (manager) =>
      manager.query(
        'WITH gone AS (DELETE FROM "report_subscriptions" WHERE "id" = $1 RETURNING "id") SELECT * FROM gone',
        [id],
      ),
    );
    if (!rows.length) throw notFound();
  }

  /**
   * The input's fields, checked as DRF would word it. Exactly one of `plan` and `device` (a PUT or PATCH that names one
   * clears the other).
   */
  private async validate(
    input: Input,
    partial: boolean,
    current: { plan_id: number | null; device_id: number | null } | undefined,
  ): Promise<SubscriptionValues> {
    const fields = fieldsOf(input);
    const errors: FieldErrors = {};
    const values: SubscriptionValues = {};

    if ('recipients' in fields) {
      const raw: unknown = fields.recipients;
      if (!Array.isArray(raw))
        errors.recipients = [`Expected a list of items but got type "${pythonTypeName(raw)}".`];
      else if (!raw.length) errors.recipients = ['This list may not be empty.'];
      else if (raw.length > MAX_RECIPIENTS)
        errors.recipients = [`Ensure this field has no more than ${MAX_RECIPIENTS} elements.`];
      else {
        const list: unknown[] = raw;
        const wrong = list.findIndex((value) => typeof value !== 'string' || !isEmailAddress(value.trim()));
        if (wrong >= 0) errors.recipients = [`Item ${wrong}: Enter a valid email address.`];
        else values.recipients = [...new Set(list.map((value) => (value as string).trim().toLowerCase()))];
      }
    } else if (!partial) errors.recipients = [REQUIRED];

    for (const [name, table] of [
      ['plan', 'check_plans'],
      ['device', 'devices'],
    ] as const) {
      if (!(name in fields)) continue;
      const raw = fields[name];
      if (raw === null || raw === '') {
        values[name] = null;
        continue;
      }
      const id = toPk(raw);
      const found =
        id !== undefined &&
        (await this.dataSource.query<unknown[]>(`SELECT 1 FROM "${table}" WHERE "id" = $1`, [id])).length > 0;
      if (typeof raw === 'boolean' || (typeof raw !== 'number' && typeof raw !== 'string'))
        errors[name] = [`Incorrect type. Expected pk value, received ${pythonTypeName(raw)}.`];
      else if (!found) errors[name] = [`Invalid pk "${pythonStr(raw)}" - object does not exist.`];
      else values[name] = id;
    }
    if (!errors.plan && !errors.device) {
      // A PUT or PATCH naming one of them replaces the scope; the other is cleared.
      if (values.plan && values.device === undefined) values.device = null;
      if (values.device && values.plan === undefined) values.plan = null;
      const plan = values.plan !== undefined ? values.plan : partial ? current?.plan_id : null;
      const device = values.device !== undefined ? values.device : partial ? current?.device_id : null;
      if ((plan ?? null) === null && (device ?? null) === null)
        errors.non_field_errors = ['Choose a plan (its rounds) or a device (its history).'];
      else if (plan && device) errors.non_field_errors = ['Choose a plan or a device, not both.'];
    }

    if ('language' in fields) {
      const value = fields.language;
      if (!(REPORT_LANGUAGES as readonly unknown[]).includes(value))
        errors.language = [`"${pythonStr(value)}" is not a valid choice.`];
      else values.language = value as string;
    }
    if ('time_zone' in fields) {
      const value = fields.time_zone;
      if (typeof value !== 'string' || !value.trim() || value.length > 64 || !isTimeZone(value.trim()))
        errors.time_zone = ['A valid timezone is required.'];
      else values.time_zone = value.trim();
    }
    if ('day_of_month' in fields) {
      const value = fields.day_of_month;
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      const day = /^-?\d+$/.test(text) ? Number(text) : undefined;
      if (day === undefined) errors.day_of_month = ['A valid integer is required.'];
      else if (day < 1) errors.day_of_month = ['Ensure this value is greater than or equal to 1.'];
      else if (day > 28) errors.day_of_month = ['Ensure this value is less than or equal to 28.'];
      else values.day_of_month = day;
    }
    if ('send_time' in fields) {
      const value = fields.send_time;
      const match = typeof value === 'string' ? TIME.exec(value.trim()) : null;
      if (!match) errors.send_time = [TIME_FORMAT];
      else values.send_time = `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
    }
    if ('active' in fields) {
      const value = readDrfBoolean(fields.active);
      if (value === undefined) errors.active = ['Must be a valid boolean.'];
      else values.active = value;
    }
    if (isFieldErrors(errors)) throw validationError(errors);
    if (!partial) {
      // PUT: what is left out takes its default.
      values.plan ??= null;
      values.device ??= null;
      values.language ??= 'en';
      values.time_zone ??= this.environment.INSPECTION_TIME_ZONE;
      values.day_of_month ??= 1;
      values.send_time ??= '07:00:00';
      values.active ??= true;
    }
    return values;
  }
}
