import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { LOGGER, type Logger } from '@fieldops/platform';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { parseNetworks } from './webhook-address';
import { postWebhook } from './webhook-sender';
import { signatureHeaders } from './webhook-signature';

interface DeliveryRow {
  status: string;
  event_id: string;
  type: string;
  data: unknown;
  occurred_at: string;
  url: string;
  secret: string;
  active: boolean;
  endpoint_id: number;
}

/** The webhook message body: the event, with its id (also `webhook-id`) receivers drop duplicates by. */
export const webhookBody = (row: Pick<DeliveryRow, 'event_id' | 'type' | 'occurred_at' | 'data'>): string =>
  JSON.stringify({ id: row.event_id, type: row.type, timestamp: row.occurred_at, data: row.data });

/**
 * Webhook deliveries: which endpoints an event goes to (a row per event and endpoint, written when the runner takes
 * the event), and one attempt at a delivery, with its log (status, attempts, last error) and the endpoint's health
 * (failing since when; disabled after INSPECTION_WEBHOOK_DISABLE_AFTER_SECONDS of failures).
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly allowed;

  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.allowed = parseNetworks(environment.INSPECTION_WEBHOOK_ALLOWED_NETWORKS);
  }

  /** The deliveries of these events to the active endpoints that want them (in the caller's transaction). */
  async fanOut(db: EntityManager, eventIds: readonly string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO "webhook_deliveries" ("endpoint_id", "event_id")
       SELECT w."id", e."id" FROM "events" e JOIN "webhook_endpoints" w ON w."active" AND e."type" = ANY(w."events")
       WHERE e."id" = ANY($1::bigint[]) ORDER BY e."id", w."id"
       ON CONFLICT DO NOTHING RETURNING "id"`,
      [eventIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * One attempt. Resolves when the delivery is done with (delivered, cancelled because its endpoint went away or
   * was switched off, or failed for good on the `last` attempt); throws to be retried.
   */
  async attempt(deliveryId: string, last: boolean): Promise<void> {
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT d."status", e."event_id", e."type", e."data", to_char(e."occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurred_at",
          w."url", w."secret", w."active", w."id" AS "endpoint_id"
        FROM "webhook_deliveries" d JOIN "events" e ON e."id" = d."event_id" JOIN "webhook_endpoints" w ON w."id" = d."endpoint_id"
        WHERE d."id" = $1`,
      [deliveryId],
    );
    const row = rows[0];
    if (!row || row.status !== 'pending') return;
    if (!row.active) {
      await this.dataSource.query(`UPDATE "webhook_deliveries" SET "status" = 'cancelled' WHERE "id" = $1`, [
        deliveryId,
      ]);
      return;
    }
    const body = webhookBody(row);
    const outcome = await postWebhook(row.url, signatureHeaders(row.secret, row.event_id, body), body, {
      timeoutMs: this.environment.INSPECTION_WEBHOOK_TIMEOUT_MS,
      allowed: this.allowed,
      userAgent: 'FieldOps-Webhooks/1',
    });
    if (outcome.ok) {
      await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `UPDATE "webhook_deliveries" SET "status" = 'delivered', "attempts" = "attempts" + 1, "last_status_code" = $2,
             "last_error" = '', "last_attempt_at" = now(), "delivered_at" = now() WHERE "id" = $1`,
          [deliveryId, outcome.statusCode ?? null],
        );
        await manager.query(`UPDATE "webhook_endpoints" SET "failing_since" = NULL WHERE "id" = $1`, [
          row.endpoint_id,
        ]);
      });
      return;
    }
    const disabled = await this.dataSource.transaction(async (manager) => {
      const endpoints: Array<{ active: boolean }> = await manager.query(
        `UPDATE "webhook_endpoints" SET "failing_since" = COALESCE("failing_since", now()),
           "active" = "active" AND COALESCE("failing_since", now()) > now() - make_interval(secs => $2),
           "disabled_reason" = CASE WHEN "active" AND COALESCE("failing_since", now()) <= now() - make_interval(secs => $2)
             THEN 'Deliveries failed since ' || to_char("failing_since" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ': ' || $3
             ELSE "disabled_reason" END
         WHERE "id" = $1 RETURNING "active"`,
        [row.endpoint_id, this.environment.INSPECTION_WEBHOOK_DISABLE_AFTER_SECONDS, outcome.error],
      );
      const off = endpoints[0]?.active === false;
      await manager.query(
        `UPDATE "webhook_deliveries" SET "status" = $4, "attempts" = "attempts" + 1, "last_status_code" = $2,
           "last_error" = $3, "last_attempt_at" = now() WHERE "id" = $1`,
        [deliveryId, outcome.statusCode ?? null, outcome.error, last || off ? 'failed' : 'pending'],
      );
      return off;
    });
    this.logger.warn(
      { delivery: deliveryId, endpoint: row.endpoint_id, error: outcome.error, last, disabled },
      'webhook delivery failed',
    );
    if (!last && !disabled) throw new Error(`webhook delivery failed: ${outcome.error}`);
  }
}
