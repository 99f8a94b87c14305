import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Token revocation: `users.tokens_valid_after` (tokens issued before it are refused; set by a password change or
 * reset, a deactivation and "sign out everywhere") and `token_blacklist` (simplejwt's blacklist: refresh tokens
 * signed out one by one, kept until they would have expired).
 */
export class AddTokenRevocation1732921000000 implements MigrationInterface {
  name = 'AddTokenRevocation1732921000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD COLUMN "tokens_valid_after" timestamptz NULL`);
    await queryRunner.query(`CREATE TABLE "token_blacklist" (
      "jti" varchar(255) PRIMARY KEY,
      "user_id" integer NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "expires_at" timestamptz NOT NULL,
      "blacklisted_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      `CREATE INDEX "token_blacklist_expires_at_idx" ON "token_blacklist" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "token_blacklist"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "tokens_valid_after"`);
  }
}
