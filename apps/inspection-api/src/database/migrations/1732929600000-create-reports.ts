import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Every PDF report handed out (`src/reports/`): its verification id (printed on each page), what it covers, who asked
 * for it and when, and the SHA-256 of the bytes sent (set once the stream has ended; null when it was cut short).
 */
export class CreateReports1732929600000 implements MigrationInterface {
  name = 'CreateReports1732929600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "reports" (
      "id" uuid PRIMARY KEY,
      "kind" varchar(6) NOT NULL CHECK ("kind" IN ('record', 'round', 'device')),
      "subject_id" integer NOT NULL,
      "period_start" date NULL,
      "period_end" date NULL,
      "language" varchar(5) NOT NULL,
      "records" integer NOT NULL,
      "generated_by" varchar(150) NOT NULL,
      "generated_at" timestamptz NOT NULL DEFAULT now(),
      "sha256" char(64) NULL,
      "bytes" bigint NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "reports"`);
  }
}
