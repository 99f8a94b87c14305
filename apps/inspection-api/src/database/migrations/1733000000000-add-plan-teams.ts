import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Plan teams (`assignee_teams` on `/api/plans/`): teams responsible for a plan's rounds, beside its users
 * (`assignees`); every member of such a team counts as an assignee of the plan's checks (`plan-assignment.ts`).
 * Deleting a team takes it off its plans; each assignment and its removal is in the audit trail on the plan
 * (`team_added` / `team_removed`), as the plan's user assignees are.
 */
export class AddPlanTeams1733000000000 implements MigrationInterface {
  name = 'AddPlanTeams1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "check_plan_teams" (
      "plan_id" integer NOT NULL REFERENCES "check_plans" ("id") ON DELETE CASCADE,
      "team_id" integer NOT NULL REFERENCES "teams" ("id") ON DELETE CASCADE,
      PRIMARY KEY ("plan_id", "team_id"))`);
    await queryRunner.query(`CREATE INDEX "check_plan_teams_team" ON "check_plan_teams" ("team_id")`);
    await queryRunner.query(`CREATE FUNCTION "audit_plan_team"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM "audit_write"('plan', NEW."plan_id", 'team_added', NULL, jsonb_build_object('assignee_team', NEW."team_id"));
        ELSE
          PERFORM "audit_write"('plan', OLD."plan_id", 'team_removed', jsonb_build_object('assignee_team', OLD."team_id"), NULL);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "check_plan_teams_audit" AFTER INSERT OR DELETE ON "check_plan_teams"
      FOR EACH ROW EXECUTE FUNCTION "audit_plan_team"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "check_plan_teams"`);
    await queryRunner.query(`DROP FUNCTION "audit_plan_team"()`);
  }
}
