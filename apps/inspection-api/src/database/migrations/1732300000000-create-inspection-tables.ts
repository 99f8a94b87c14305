import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Devices, check items, check plans (with their device set) and check records.
 * Device codes are unique; deleting a device deletes its items, plan memberships and records; deleting a
 * plan or an item sets the records' reference to NULL.
 */
export class CreateInspectionTables1732300000000 implements MigrationInterface {
  name = 'CreateInspectionTables1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "devices" (
        "id" SERIAL PRIMARY KEY,
        "name" VARCHAR(200) NOT NULL,
        "code" VARCHAR(100) NOT NULL,
        "location" VARCHAR(200) NOT NULL DEFAULT '',
        "group" VARCHAR(100) NOT NULL DEFAULT '',
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT "devices_code_key" UNIQUE ("code")
      )`);
    await queryRunner.query(`CREATE INDEX "devices_group_idx" ON "devices" ("group")`);
    await queryRunner.query(`
      CREATE TABLE "check_items" (
        "id" SERIAL PRIMARY KEY,
        "name" VARCHAR(200) NOT NULL,
        "description" TEXT NOT NULL DEFAULT '',
        "expected_value" VARCHAR(200) NOT NULL DEFAULT '',
        "device_id" INTEGER NOT NULL REFERENCES "devices" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX "check_items_device_id_idx" ON "check_items" ("device_id", "id")`);
    await queryRunner.query(`
      CREATE TABLE "check_plans" (
        "id" SERIAL PRIMARY KEY,
        "name" VARCHAR(200) NOT NULL,
        "frequency" VARCHAR(10) NOT NULL CHECK ("frequency" IN ('daily', 'weekly', 'monthly')),
        "active" BOOLEAN NOT NULL DEFAULT TRUE
      )`);
    await queryRunner.query(`
      CREATE TABLE "check_plan_devices" (
        "plan_id" INTEGER NOT NULL REFERENCES "check_plans" ("id") ON DELETE CASCADE,
        "device_id" INTEGER NOT NULL REFERENCES "devices" ("id") ON DELETE CASCADE,
        PRIMARY KEY ("plan_id", "device_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "check_plan_devices_device_id_idx" ON "check_plan_devices" ("device_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "check_records" (
        "id" SERIAL PRIMARY KEY,
        "status" VARCHAR(4) NOT NULL CHECK ("status" IN ('ok', 'warn', 'fail')),
        "value" VARCHAR(200) NOT NULL DEFAULT '',
        "note" TEXT NOT NULL DEFAULT '',
        "photo" VARCHAR(255) NULL,
        "attachment" VARCHAR(255) NULL,
        "checked_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "checked_by" VARCHAR(150) NOT NULL DEFAULT '',
        "plan_id" INTEGER NULL REFERENCES "check_plans" ("id") ON DELETE SET NULL,
        "device_id" INTEGER NOT NULL REFERENCES "devices" ("id") ON DELETE CASCADE,
        "item_id" INTEGER NULL REFERENCES "check_items" ("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(`CREATE INDEX "check_records_device_id_idx" ON "check_records" ("device_id")`);
    await queryRunner.query(`CREATE INDEX "check_records_plan_id_idx" ON "check_records" ("plan_id")`);
    await queryRunner.query(`CREATE INDEX "check_records_item_id_idx" ON "check_records" ("item_id")`);
    await queryRunner.query(`CREATE INDEX "check_records_checked_at_idx" ON "check_records" ("checked_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "check_records"`);
    await queryRunner.query(`DROP TABLE "check_plan_devices"`);
    await queryRunner.query(`DROP TABLE "check_plans"`);
    await queryRunner.query(`DROP TABLE "check_items"`);
    await queryRunner.query(`DROP TABLE "devices"`);
  }
}
