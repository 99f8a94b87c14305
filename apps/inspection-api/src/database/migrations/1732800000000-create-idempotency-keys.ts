import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The `Idempotency-Key`s of record writes (IdempotencyService): per user and key, the request's fingerprint and the
 * first response, kept for INSPECTION_IDEMPOTENCY_KEY_HOURS (deleted by the service's purge, by `created_at`).
 */
export class CreateIdempotencyKeys1732800000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "idempotency_keys" (
      "user_id" integer NOT NULL,
      "key" varchar(255) NOT NULL,
      "fingerprint" char(64) NOT NULL,
      "status" smallint,
      "body" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("user_id", "key")
    )`);
    await queryRunner.query(
      'CREATE INDEX "IDX_idempotency_keys_created_at" ON "idempotency_keys" ("created_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "idempotency_keys"');
  }
}
