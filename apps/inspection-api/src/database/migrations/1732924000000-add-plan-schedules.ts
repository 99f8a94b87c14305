import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Plan schedules beyond the spec's three words (`schedule` on `/api/plans/`, rules in `src/due/due-rules.ts`):
 * every N days, weeks, months or years, an optional first day (`starts_on`, which also sets the periods' phase) and an
 * optional time of day the check is due by on the period's last day (`due_time`). Existing plans get the schedule
 * their `frequency` means (every 1 day, week or month), so their due checks do not change.
 */
export class AddPlanSchedules1732924000000 implements MigrationInterface {
  name = 'AddPlanSchedules1732924000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "check_plans"
      ADD COLUMN "schedule_every" integer NOT NULL DEFAULT 1
        CONSTRAINT "check_plans_schedule_every_check" CHECK ("schedule_every" BETWEEN 1 AND 366),
      ADD COLUMN "schedule_unit" varchar(5) NOT NULL DEFAULT 'day'
        CONSTRAINT "check_plans_schedule_unit_check" CHECK ("schedule_unit" IN ('day', 'week', 'month', 'year')),
      ADD COLUMN "starts_on" date NULL,
      ADD COLUMN "due_time" time NULL`);
    await queryRunner.query(`UPDATE "check_plans" SET "schedule_unit" =
      CASE "frequency" WHEN 'weekly' THEN 'week' WHEN 'monthly' THEN 'month' ELSE 'day' END
      WHERE "frequency" <> 'daily'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "check_plans" DROP COLUMN "due_time", DROP COLUMN "starts_on",
      DROP COLUMN "schedule_unit", DROP COLUMN "schedule_every"`);
  }
}
