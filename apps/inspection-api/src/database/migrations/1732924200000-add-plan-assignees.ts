import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Plan assignees (`assignees` on `/api/plans/`): the users responsible for a plan's rounds. A deleted user leaves
 * the plans they were assigned; each assignment and its removal is in the audit trail on the plan
 * (`assignee_added` / `assignee_removed`), as a plan's devices are.
 */
export class AddPlanAssignees1732924200000 implements MigrationInterface {
  name = 'AddPlanAssignees1732924200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "check_plan_assignees" (
      "plan_id" integer NOT NULL REFERENCES "check_plans" ("id") ON DELETE CASCADE,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      PRIMARY KEY ("plan_id", "user_id"))`);
    await queryRunner.query(`CREATE INDEX "check_plan_assignees_user" ON "check_plan_assignees" ("user_id")`);
    await queryRunner.query(`CREATE FUNCTION "audit_plan_assignee"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM "audit_write"('plan', NEW."plan_id", 'assignee_added', NULL, jsonb_build_object('assignee', NEW."user_id"));
        ELSE
          PERFORM "audit_write"('plan', OLD."plan_id", 'assignee_removed', jsonb_build_object('assignee', OLD."user_id"), NULL);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "check_plan_assignees_audit" AFTER INSERT OR DELETE ON "check_plan_assignees"
      FOR EACH ROW EXECUTE FUNCTION "audit_plan_assignee"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "check_plan_assignees"`);
    await queryRunner.query(`DROP FUNCTION "audit_plan_assignee"()`);
  }
}
