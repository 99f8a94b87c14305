import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The due checks read "the last record of an item (or a device) before an instant" and "is there a record of it
 * between two instants": composite indexes on (item_id, checked_at) and (device_id, checked_at) answer both with
 * one index probe. They replace the single-column indexes, which they cover.
 */
export class IndexRecordsByTime1732500000000 implements MigrationInterface {
  name = 'IndexRecordsByTime1732500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "check_records_item_id_checked_at_idx" ON "check_records" ("item_id", "checked_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "check_records_device_id_checked_at_idx" ON "check_records" ("device_id", "checked_at")`,
    );
    await queryRunner.query(`DROP INDEX "check_records_item_id_idx"`);
    await queryRunner.query(`DROP INDEX "check_records_device_id_idx"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "check_records_device_id_idx" ON "check_records" ("device_id")`);
    await queryRunner.query(`CREATE INDEX "check_records_item_id_idx" ON "check_records" ("item_id")`);
    await queryRunner.query(`DROP INDEX "check_records_device_id_checked_at_idx"`);
    await queryRunner.query(`DROP INDEX "check_records_item_id_checked_at_idx"`);
  }
}
