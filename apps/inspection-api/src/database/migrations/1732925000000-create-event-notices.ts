import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The occurrences the event runner's schedule has already told of (src/events/scheduled-events.ts): one row per
 * event type, subject (a check: plan, device and item; an action) and occurrence (the check's period, the action's
 * due date), written in the transaction that writes the event, so each is emitted once across restarts and
 * replicas. A check's row is dropped once its period is over (`expires_on`); an action's is kept.
 * `scheduled_runs` holds when each scheduled task last ran, so one replica per interval does the work.
 */
export class CreateEventNotices1732925000000 implements MigrationInterface {
  name = 'CreateEventNotices1732925000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "event_notices" (
      "type" varchar(40) NOT NULL,
      "subject" varchar(100) NOT NULL,
      "occurrence" varchar(40) NOT NULL,
      "expires_on" date NULL,
      "noticed_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("type", "subject", "occurrence")
    )`);
    await queryRunner.query(
      `CREATE INDEX "event_notices_expires_on_idx" ON "event_notices" ("expires_on") WHERE "expires_on" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE TABLE "scheduled_runs" (
      "name" varchar(60) PRIMARY KEY,
      "ran_at" timestamptz NOT NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "scheduled_runs"`);
    await queryRunner.query(`DROP TABLE "event_notices"`);
  }
}
