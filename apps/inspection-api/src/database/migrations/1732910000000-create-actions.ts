import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Corrective actions (`/api/actions/`), their status transitions (who moved each one and when) and their comments;
 * and per plan when a check record opens an action by itself (`open_action_on`: `fail`, `warn` or `never`).
 * An action keeps the device and item of its record, so deleting the record (the only real deletion left) leaves the
 * action with `record` null but still about its device; a deleted user's actions become unassigned.
 */
export class CreateActions1732910000000 implements MigrationInterface {
  name = 'CreateActions1732910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "check_plans" ADD COLUMN "open_action_on" varchar(5) NOT NULL DEFAULT 'fail'
      CONSTRAINT "check_plans_open_action_on_check" CHECK ("open_action_on" IN ('fail', 'warn', 'never'))`);
    await queryRunner.query(`CREATE TABLE "actions" (
      "id" SERIAL PRIMARY KEY,
      "title" varchar(200) NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "record_id" integer NULL REFERENCES "check_records" ("id") ON DELETE SET NULL,
      "device_id" integer NULL REFERENCES "devices" ("id") ON DELETE RESTRICT,
      "item_id" integer NULL REFERENCES "check_items" ("id") ON DELETE RESTRICT,
      "assignee_id" integer NULL REFERENCES "users" ("id") ON DELETE SET NULL,
      "due_date" date NULL,
      "priority" varchar(6) NOT NULL DEFAULT 'medium' CHECK ("priority" IN ('low', 'medium', 'high')),
      "status" varchar(11) NOT NULL DEFAULT 'open'
        CHECK ("status" IN ('open', 'in_progress', 'done', 'verified', 'cancelled')),
      "close_out_note" text NOT NULL DEFAULT '',
      "close_out_photo" varchar(255) NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "created_by" varchar(150) NOT NULL DEFAULT '',
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "actions_status_idx" ON "actions" ("status", "due_date")`);
    await queryRunner.query(`CREATE INDEX "actions_assignee_id_idx" ON "actions" ("assignee_id")`);
    await queryRunner.query(`CREATE INDEX "actions_record_id_idx" ON "actions" ("record_id")`);
    await queryRunner.query(`CREATE INDEX "actions_device_id_idx" ON "actions" ("device_id")`);
    await queryRunner.query(`CREATE TABLE "action_transitions" (
      "id" SERIAL PRIMARY KEY,
      "action_id" integer NOT NULL REFERENCES "actions" ("id") ON DELETE CASCADE,
      "from_status" varchar(11) NULL,
      "to_status" varchar(11) NOT NULL,
      "by_user" varchar(150) NOT NULL DEFAULT '',
      "at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      `CREATE INDEX "action_transitions_action_id_idx" ON "action_transitions" ("action_id", "id")`,
    );
    await queryRunner.query(`CREATE TABLE "action_comments" (
      "id" SERIAL PRIMARY KEY,
      "action_id" integer NOT NULL REFERENCES "actions" ("id") ON DELETE CASCADE,
      "text" text NOT NULL,
      "author" varchar(150) NOT NULL DEFAULT '',
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      `CREATE INDEX "action_comments_action_id_idx" ON "action_comments" ("action_id", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "action_comments"`);
    await queryRunner.query(`DROP TABLE "action_transitions"`);
    await queryRunner.query(`DROP TABLE "actions"`);
    await queryRunner.query(`ALTER TABLE "check_plans" DROP COLUMN "open_action_on"`);
  }
}
