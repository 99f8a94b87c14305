import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Teams (`/api/teams/`): a name and members (users); an action is assigned to a user or to a team, never both
 * (`actions.assignee_team_id`, a CHECK). Deleting a team leaves its actions unassigned, as deleting a user does; a
 * deleted user leaves their teams. Teams are in the audit trail (`team`: created, updated, deleted), and so is each
 * membership, on the team (`member_added` / `member_removed`), as a plan's assignees are.
 */
export class CreateTeams1732932400000 implements MigrationInterface {
  name = 'CreateTeams1732932400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "teams" (
      "id" SERIAL PRIMARY KEY,
      "name" varchar(150) NOT NULL CONSTRAINT "teams_name_key" UNIQUE,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE "team_members" (
      "team_id" integer NOT NULL REFERENCES "teams" ("id") ON DELETE CASCADE,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      PRIMARY KEY ("team_id", "user_id"))`);
    await queryRunner.query(`CREATE INDEX "team_members_user" ON "team_members" ("user_id")`);
    await queryRunner.query(`ALTER TABLE "actions"
      ADD COLUMN "assignee_team_id" integer NULL REFERENCES "teams" ("id") ON DELETE SET NULL,
      ADD CONSTRAINT "actions_one_assignee" CHECK ("assignee_id" IS NULL OR "assignee_team_id" IS NULL)`);
    await queryRunner.query(`CREATE INDEX "actions_assignee_team_id_idx" ON "actions" ("assignee_team_id")`);
    await queryRunner.query(`CREATE TRIGGER "teams_audit" AFTER INSERT OR UPDATE OR DELETE ON "teams"
      FOR EACH ROW EXECUTE FUNCTION "audit_row_change"('team', '', '')`);
    await queryRunner.query(`CREATE FUNCTION "audit_team_member"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM "audit_write"('team', NEW."team_id", 'member_added', NULL, jsonb_build_object('member', NEW."user_id"));
        ELSE
          PERFORM "audit_write"('team', OLD."team_id", 'member_removed', jsonb_build_object('member', OLD."user_id"), NULL);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "team_members_audit" AFTER INSERT OR DELETE ON "team_members"
      FOR EACH ROW EXECUTE FUNCTION "audit_team_member"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "actions" DROP COLUMN "assignee_team_id"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP FUNCTION "audit_team_member"()`);
    await queryRunner.query(`DROP TABLE "teams"`);
  }
}
