import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Notifications to people (docs/protocols/notifications.md): where a person's email goes and in which language,
 * whether they get the daily digest; one row per event, person and channel, so each is sent once (whatever the
 * replicas and restarts), and one row per person and day for the digest.
 */
export class CreateNotifications1732929300000 implements MigrationInterface {
  name = 'CreateNotifications1732929300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_preferences"
      ADD COLUMN "email" varchar(254) NULL,
      ADD COLUMN "language" varchar(10) NULL,
      ADD COLUMN "email_digest" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`CREATE TABLE "notifications" (
      "id" BIGSERIAL PRIMARY KEY,
      "event_id" bigint NOT NULL REFERENCES "events" ("id") ON DELETE CASCADE,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "channel" varchar(10) NOT NULL,
      "send_at" timestamptz NOT NULL,
      "status" varchar(10) NOT NULL DEFAULT 'pending',
      "attempts" integer NOT NULL DEFAULT 0,
      "last_error" text NULL,
      "sent_at" timestamptz NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "notifications_once" UNIQUE ("event_id", "user_id", "channel")
    )`);
    await queryRunner.query(
      `CREATE INDEX "notifications_user_idx" ON "notifications" ("user_id", "channel", "created_at")`,
    );
    await queryRunner.query(`CREATE TABLE "notification_digests" (
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "day" date NOT NULL,
      "status" varchar(10) NOT NULL DEFAULT 'pending',
      "sent_at" timestamptz NULL,
      PRIMARY KEY ("user_id", "day")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "notification_digests"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
    await queryRunner.query(`ALTER TABLE "notification_preferences"
      DROP COLUMN "email", DROP COLUMN "language", DROP COLUMN "email_digest"`);
  }
}
