import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Devices, check items and check plans are archived instead of deleted (`archived_at`), so the records made on them
 * stay, still linked: the records' references no longer cascade or turn to NULL, and refuse a real deletion of what
 * they point at. A device code is unique among the devices that are not archived (an archived device's code may be
 * reused; restoring it then is a 400). The items of an archived device carry the device's `archived_at`, so
 * restoring the device restores exactly them.
 */
export class ArchiveInventory1732900000000 implements MigrationInterface {
  name = 'ArchiveInventory1732900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['devices', 'check_items', 'check_plans'])
      await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "archived_at" timestamptz NULL`);
    await queryRunner.query(`ALTER TABLE "devices" DROP CONSTRAINT "devices_code_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "devices_code_key" ON "devices" ("code") WHERE "archived_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "devices_archived_at_idx" ON "devices" ("archived_at", "id") WHERE "archived_at" IS NOT NULL`,
    );
    for (const [column, table] of [
      ['device_id', 'devices'],
      ['plan_id', 'check_plans'],
      ['item_id', 'check_items'],
    ]) {
      await queryRunner.query(`ALTER TABLE "check_records" DROP CONSTRAINT "check_records_${column}_fkey"`);
      await queryRunner.query(
        `ALTER TABLE "check_records" ADD CONSTRAINT "check_records_${column}_fkey" FOREIGN KEY ("${column}") REFERENCES "${table}" ("id") ON DELETE RESTRICT`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [column, table, action] of [
      ['device_id', 'devices', 'CASCADE'],
      ['plan_id', 'check_plans', 'SET NULL'],
      ['item_id', 'check_items', 'SET NULL'],
    ]) {
      await queryRunner.query(`ALTER TABLE "check_records" DROP CONSTRAINT "check_records_${column}_fkey"`);
      await queryRunner.query(
        `ALTER TABLE "check_records" ADD CONSTRAINT "check_records_${column}_fkey" FOREIGN KEY ("${column}") REFERENCES "${table}" ("id") ON DELETE ${action}`,
      );
    }
    await queryRunner.query(`DROP INDEX "devices_archived_at_idx"`);
    await queryRunner.query(`DROP INDEX "devices_code_key"`);
    await queryRunner.query(
      `DELETE FROM "check_plan_devices" WHERE "device_id" IN (SELECT "id" FROM "devices" WHERE "archived_at" IS NOT NULL)`,
    );
    await queryRunner.query(
      `DELETE FROM "check_records" WHERE "device_id" IN (SELECT "id" FROM "devices" WHERE "archived_at" IS NOT NULL)`,
    );
    await queryRunner.query(`DELETE FROM "check_plans" WHERE "archived_at" IS NOT NULL`);
    await queryRunner.query(`DELETE FROM "check_items" WHERE "archived_at" IS NOT NULL`);
    await queryRunner.query(`DELETE FROM "devices" WHERE "archived_at" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "devices" ADD CONSTRAINT "devices_code_key" UNIQUE ("code")`);
    for (const table of ['devices', 'check_items', 'check_plans'])
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "archived_at"`);
  }
}
