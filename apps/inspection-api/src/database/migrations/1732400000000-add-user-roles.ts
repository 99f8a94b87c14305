import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each user is an `inspector` or a `supervisor`. Users that exist when this runs become supervisors (they could do
 * everything before); afterwards a new row defaults to `inspector` (UsersService makes the very first user a
 * supervisor).
 */
export class AddUserRoles1732400000000 implements MigrationInterface {
  name = 'AddUserRoles1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "users" ADD COLUMN "role" VARCHAR(10) NOT NULL DEFAULT 'supervisor'
        CONSTRAINT "users_role_check" CHECK ("role" IN ('inspector', 'supervisor'))`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'inspector'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "role"`);
  }
}
