import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What each person chose to be told (`/api/users/me/notifications/`): the event types, quiet hours, time zone and
 * the time of day of due-check reminders. No row: the defaults of the person's role.
 */
export class CreateNotificationPreferences1732925100000 implements MigrationInterface {
  name = 'CreateNotificationPreferences1732925100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notification_preferences" (
      "user_id" integer PRIMARY KEY REFERENCES "users" ("id") ON DELETE CASCADE,
      "events" text[] NOT NULL,
      "quiet_hours_start" time NULL,
      "quiet_hours_end" time NULL,
      "time_zone" varchar(64) NULL,
      "reminder_time" time NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "notification_preferences_quiet_hours" CHECK (("quiet_hours_start" IS NULL) = ("quiet_hours_end" IS NULL))
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "notification_preferences"`);
  }
}
