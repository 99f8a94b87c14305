import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** How a record was made (`chat`, `qr` from a scanned device label, `api`); earlier records are `api`. */
export class AddRecordSource1732810000000 implements MigrationInterface {
  name = 'AddRecordSource1732810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "check_records" ADD COLUMN "source" varchar(4) NOT NULL DEFAULT 'api'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "check_records" DROP COLUMN "source"');
  }
}
