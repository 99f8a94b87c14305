import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Accounts that obtain JWTs (Django's auth_user, the columns simplejwt needs). */
export class CreateUsers1732240000000 implements MigrationInterface {
  name = 'CreateUsers1732240000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "users" (
        "id" SERIAL PRIMARY KEY,
        "username" VARCHAR(150) NOT NULL UNIQUE,
        "password" VARCHAR(255) NOT NULL,
        "is_active" BOOLEAN NOT NULL DEFAULT TRUE,
        "is_staff" BOOLEAN NOT NULL DEFAULT FALSE,
        "date_joined" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "last_login" TIMESTAMPTZ NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
