import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Webhook endpoints (`/api/webhooks/`) and their delivery log: one delivery per (event, endpoint), with its status,
 * attempts and last error. An endpoint failing since `failing_since` for longer than the configured window is
 * switched off (`active` false, `disabled_reason` says why).
 */
export class CreateWebhooks1732923100000 implements MigrationInterface {
  name = 'CreateWebhooks1732923100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhook_endpoints" (
      "id" SERIAL PRIMARY KEY,
      "url" varchar(2000) NOT NULL,
      "events" text[] NOT NULL,
      "secret" varchar(200) NOT NULL,
      "active" boolean NOT NULL DEFAULT true,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "created_by" varchar(150) NOT NULL DEFAULT '',
      "failing_since" timestamptz NULL,
      "disabled_reason" text NOT NULL DEFAULT ''
    )`);
    await queryRunner.query(`CREATE TABLE "webhook_deliveries" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
      "event_id" bigint NOT NULL REFERENCES "events" ("id") ON DELETE CASCADE,
      "status" varchar(9) NOT NULL DEFAULT 'pending'
        CHECK ("status" IN ('pending', 'delivered', 'failed', 'cancelled')),
      "attempts" integer NOT NULL DEFAULT 0,
      "last_status_code" integer NULL,
      "last_error" text NOT NULL DEFAULT '',
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "last_attempt_at" timestamptz NULL,
      "delivered_at" timestamptz NULL,
      CONSTRAINT "webhook_deliveries_event_endpoint_key" UNIQUE ("event_id", "endpoint_id")
    )`);
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "created_at" DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
