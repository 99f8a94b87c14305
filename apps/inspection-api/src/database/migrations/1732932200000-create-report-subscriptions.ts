import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Monthly report subscriptions (`/api/report-subscriptions/`, src/report-subscriptions/): who receives which monthly
 * PDF (a plan's round or a device's history), in which language, on which day and time of which zone; and one row
 * per send (unique per subscription and month, so a month is sent once whatever the replicas and restarts). The
 * subscriptions are in the audit trail (resource `report_subscription`, so the trail's resource column widens).
 */
export class CreateReportSubscriptions1732932200000 implements MigrationInterface {
  name = 'CreateReportSubscriptions1732932200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "report_subscriptions" (
      "id" serial PRIMARY KEY,
      "recipients" varchar(254)[] NOT NULL,
      "plan_id" integer NULL REFERENCES "check_plans" ("id") ON DELETE CASCADE,
      "device_id" integer NULL REFERENCES "devices" ("id") ON DELETE CASCADE,
      "language" varchar(5) NOT NULL DEFAULT 'en',
      "time_zone" varchar(64) NOT NULL,
      "day_of_month" smallint NOT NULL DEFAULT 1 CHECK ("day_of_month" BETWEEN 1 AND 28),
      "send_time" time NOT NULL DEFAULT '07:00',
      "active" boolean NOT NULL DEFAULT true,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "created_by" varchar(150) NOT NULL DEFAULT '',
      CHECK (("plan_id" IS NULL) <> ("device_id" IS NULL))
    )`);
    await queryRunner.query(
      `CREATE INDEX "report_subscriptions_plan_idx" ON "report_subscriptions" ("plan_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "report_subscriptions_device_idx" ON "report_subscriptions" ("device_id")`,
    );
    await queryRunner.query(`CREATE TABLE "report_subscription_sends" (
      "id" bigserial PRIMARY KEY,
      "subscription_id" integer NOT NULL REFERENCES "report_subscriptions" ("id") ON DELETE CASCADE,
      "month" date NOT NULL,
      "send_at" timestamptz NOT NULL,
      "status" varchar(10) NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'sent', 'failed')),
      "attempts" integer NOT NULL DEFAULT 0,
      "last_error" text NOT NULL DEFAULT '',
      "report_id" uuid NULL,
      "sent_at" timestamptz NULL,
      UNIQUE ("subscription_id", "month")
    )`);
    await queryRunner.query(`ALTER TABLE "audit_entries" ALTER COLUMN "resource" TYPE varchar(32)`);
    await queryRunner.query(`CREATE TRIGGER "report_subscriptions_audit" AFTER INSERT OR UPDATE OR DELETE
      ON "report_subscriptions" FOR EACH ROW EXECUTE FUNCTION "audit_row_change"('report_subscription', '', '')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "report_subscriptions_audit" ON "report_subscriptions"`);
    await queryRunner.query(`DROP TABLE "report_subscription_sends"`);
    await queryRunner.query(`DROP TABLE "report_subscriptions"`);
  }
}
