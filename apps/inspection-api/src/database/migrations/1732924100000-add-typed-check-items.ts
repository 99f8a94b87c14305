import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Typed check items (rules in `src/items/item-type.ts`): a `type` (`text`, the spec's free value, by default;
 * `number` with `min`, `max` and `unit`; `yes_no`; `choice` with `options`), and on each record whether its value was
 * outside its item's definition when it was written (`out_of_range`). Existing items are `text`, existing records in
 * range.
 */
export class AddTypedCheckItems1732924100000 implements MigrationInterface {
  name = 'AddTypedCheckItems1732924100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "check_items"
      ADD COLUMN "type" varchar(6) NOT NULL DEFAULT 'text'
        CONSTRAINT "check_items_type_check" CHECK ("type" IN ('text', 'number', 'yes_no', 'choice')),
      ADD COLUMN "unit" varchar(20) NOT NULL DEFAULT '',
      ADD COLUMN "min" double precision NULL,
      ADD COLUMN "max" double precision NULL,
      ADD COLUMN "options" text[] NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `ALTER TABLE "check_records" ADD COLUMN "out_of_range" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "check_records" DROP COLUMN "out_of_range"`);
    await queryRunner.query(`ALTER TABLE "check_items" DROP COLUMN "options", DROP COLUMN "max", DROP COLUMN "min",
      DROP COLUMN "unit", DROP COLUMN "type"`);
  }
}
