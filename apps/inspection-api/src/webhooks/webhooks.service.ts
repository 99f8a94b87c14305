import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { isoTimestamp } from '../database/sql';
import { type FieldErrors, isFieldErrors, notFound, validationError } from '../drf/exceptions';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { type ResourceRequest, type ResourceService } from '../drf/resource-routes';
import { type Input } from '../drf/serializer';
import { EVENT_TYPES, isEventType } from '../events/event-types';
import { type AllowedNetwork, parseNetworks, refusedAddress } from './webhook-address';
import { newSecret, secretKey } from './webhook-signature';

const WEBHOOK_JSON = `json_build_object('id', w."id", 'url', w."url", 'events', to_json(w."events"), 'active', w."active", 'created_at', ${isoTimestamp('w."created_at"')}, 'created_by', w."created_by", 'failing_since', ${isoTimestamp('w."failing_since"')}, 'disabled_reason', w."disabled_reason")`;
const DELIVERY_JSON = `json_build_object('id', d."id", 'event', e."event_id", 'event_type', e."type", 'status', d."status", 'attempts', d."attempts", 'last_status_code', d."last_status_code", 'last_error', d."last_error", 'created_at', ${isoTimestamp('d."created_at"')}, 'last_attempt_at', ${isoTimestamp('d."last_attempt_at"')}, 'delivered_at', ${isoTimestamp('d."delivered_at"')})`;

const REQUIRED = 'This field is required.';
const SECRET_FORMAT =
  'Enter a Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes.';

interface WebhookValues {
  url?: string;
  events?: string[];
  secret?: string;
  active?: boolean;
}

/** One field of JSON or form input: undefined when absent. */
function field(input: Input, name: string, list = false): unknown {
  if (input.kind === 'json') return (input.data as Record<string, unknown>)[name];
  const values = input.data.get(name);
  if (values === undefined) return undefined;
  return list ? values : values[values.length - 1];
}

/** Webhook endpoints (`/api/webhooks/`, supervisors): where events are sent, signed with the endpoint's secret. */
@Injectable()
export class WebhooksService implements ResourceService {
  private readonly allowed: AllowedNetwork[];

  constructor(
    private readonly dataSource: DataSource,
    environment: InspectionApiEnvironment,
  ) {
    this.allowed = parseNetworks(environment.INSPECTION_WEBHOOK_ALLOWED_NETWORKS);
  }

  page(request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(
        `SELECT (SELECT count(*) FROM "webhook_endpoints")::int AS "count",
           COALESCE((SELECT json_agg(${WEBHOOK_JSON} ORDER BY w."id") FROM (SELECT * FROM "webhook_endpoints" ORDER BY "id" LIMIT $1 OFFSET $2) w), '[]'::json) AS "results"`,
        [limit, offset],
      );
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  async findOne(id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT ${WEBHOOK_JSON} AS "body" FROM "webhook_endpoints" w WHERE w."id" = $1`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /** The delivery log of an endpoint, newest first (paged). */
  async deliveries(id: number, request: PageRequest): Promise<PageRows<unknown> & { page: number }> {
    await this.findOne(id);
    return paginate(request, async (limit, offset) => {
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(
        `SELECT (SELECT count(*) FROM "webhook_deliveries" WHERE "endpoint_id" = $1)::int AS "count",
           COALESCE((SELECT json_agg(${DELIVERY_JSON} ORDER BY d."created_at" DESC, d."event_id" DESC)
             FROM (SELECT * FROM "webhook_deliveries" WHERE "endpoint_id" = $1 ORDER BY "created_at" DESC, "event_id" DESC LIMIT $2 OFFSET $3) d
             JOIN "events" e ON e."id" = d."event_id"), '[]'::json) AS "results"`,
        [id, limit, offset],
      );
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  async create(readInput: () => Input, request: ResourceRequest): Promise<unknown> {
    const values = await this.validate(readInput(), false);
    const secret = values.secret ?? newSecret();
    const rows: Array<{ id: number }> = await this.dataSource.query(
      `INSERT INTO "webhook_endpoints" ("url", "events", "secret", "active", "created_by") VALUES ($1, $2, $3, $4, $5) RETURNING "id"`,
      [values.url, values.events, secret, values.active ?? true, request.user?.username ?? ''],
    );
    const id = rows[0]?.id ?? 0;
    // The secret is shown this once (it is write-only afterwards).
    return { ...((await this.findOne(id)) as object), secret };
  }

  async update(id: number, readInput: () => Input, partial: boolean): Promise<unknown> {
    await this.findOne(id);
    const values = await this.validate(readInput(), partial);
    const assignments: string[] = [];
    const parameters: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      parameters.push(value);
      assignments.push(`"${column}" = $${parameters.length}`);
    };
    if (values.url !== undefined) set('url', values.url);
    if (values.events !== undefined) set('events', values.events);
    if (values.secret !== undefined) set('secret', values.secret);
    if (values.active !== undefined) {
      set('active', values.active);
      // Switched on again: a fresh start (the failures that disabled it are history in the delivery log).
      if (values.active) assignments.push(`"failing_since" = NULL`, `"disabled_reason" = ''`);
    }
    if (assignments.length)
      await this.dataSource.query(
        `UPDATE "webhook_endpoints" SET ${assignments.join(', ')} WHERE "id" = $1`,
        parameters,
      );
    return this.findOne(id);
  }

  async remove(id: number): Promise<void> {
    const rows: unknown[] = await this.dataSource.query(
      'WITH gone AS (DELETE FROM "webhook_endpoints" WHERE "id" = $1 RETURNING "id") SELECT * FROM gone',
      [id],
    );
    if (!rows.length) throw notFound();
  }

  private async validate(input: Input, partial: boolean): Promise<WebhookValues> {
    if (
      input.kind === 'json' &&
      (typeof input.data !== 'object' || input.data === null || Array.isArray(input.data))
    )
      throw validationError({
        non_field_errors: [
          `Invalid data. Expected a dictionary, but got ${Array.isArray(input.data) ? 'list' : typeof input.data === 'string' ? 'str' : typeof input.data}.`,
        ],
      });
    const errors: FieldErrors = {};
    const values: WebhookValues = {};
    const url = field(input, 'url');
    if (url === undefined) {
      if (!partial) errors.url = [REQUIRED];
    } else {
      const problem = typeof url === 'string' ? await this.urlProblem(url) : 'Enter a valid URL.';
      if (problem) errors.url = [problem];
      else values.url = url as string;
    }
    const events = field(input, 'events', true);
    if (events === undefined) {
      if (!partial) errors.events = [REQUIRED];
    } else if (!Array.isArray(events)) {
      errors.events = [
        `Expected a list of items but got type "${typeof events === 'string' ? 'str' : typeof events}".`,
      ];
    } else if (!events.length) {
      errors.events = ['This selection may not be empty.'];
    } else {
      const items: unknown[] = events;
      const wrong = items.find((event) => !isEventType(event));
      if (wrong !== undefined)
        errors.events = [
          `"${typeof wrong === 'string' ? wrong : JSON.stringify(wrong)}" is not a valid choice.`,
        ];
      else
        values.events = [...new Set(items.filter(isEventType))].sort(
          (a, b) => EVENT_TYPES.indexOf(a) - EVENT_TYPES.indexOf(b),
        );
    }
    const secret = field(input, 'secret');
    if (secret !== undefined) {
      if (typeof secret !== 'string' || !secretKey(secret)) errors.secret = [SECRET_FORMAT];
      else values.secret = secret;
    }
    const active = field(input, 'active');
    if (active !== undefined) {
      const text = typeof active === 'string' || typeof active === 'number' ? String(active) : undefined;
      const truth =
        typeof active === 'boolean'
          ? active
          : text !== undefined && ['true', 'True', '1', 'on'].includes(text)
            ? true
            : text !== undefined && ['false', 'False', '0', 'off', ''].includes(text)
              ? false
              : undefined;
      if (truth === undefined) errors.active = ['Must be a valid boolean.'];
      else values.active = truth;
    }
    if (isFieldErrors(errors)) throw validationError(errors);
    return values;
  }

  /**
   * What is wrong with a webhook URL: not http(s), too long, or its host (or what the host resolves to now) is an
   * address the rule refuses. The address is checked again on every connection (webhook-sender.ts).
   */
  private async urlProblem(url: string): Promise<string | undefined> {
    if (url.length > 2000) return 'Ensure this field has no more than 2000 characters.';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'Enter a valid URL.';
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) return 'Enter a valid URL.';
    if (parsed.username || parsed.password) return 'Credentials in the URL are not allowed.';
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
      } catch {
        return undefined; // not resolvable yet: the connection's check decides
      }
    }
    for (const address of addresses) {
      const reason = refusedAddress(address, this.allowed);
      if (reason) return `Refused: ${reason}.`;
    }
    return undefined;
  }
}
