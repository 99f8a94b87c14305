import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The events outbox (src/events/): each domain event is a row written in the transaction of the change it tells of,
 * and marked dispatched in the transaction that hands it to the job runner (pg-boss, in its own `pgboss` schema),
 * so a crash between the two loses nothing and sends nothing twice.
 */
export class CreateEvents1732923000000 implements MigrationInterface {
  name = 'CreateEvents1732923000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "events" (
      "id" BIGSERIAL PRIMARY KEY,
      "event_id" uuid NOT NULL DEFAULT gen_random_uuid() CONSTRAINT "events_event_id_key" UNIQUE,
      "type" varchar(40) NOT NULL,
      "data" jsonb NOT NULL,
      "occurred_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
      "dispatched_at" timestamptz NULL
    )`);
    await queryRunner.query(
      `CREATE INDEX "events_undispatched_idx" ON "events" ("id") WHERE "dispatched_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "events"`);
  }
}
