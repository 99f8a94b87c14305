import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Sign-in through an OpenID Connect provider: `users.oidc_issuer` / `oidc_subject` (the person at the provider an
 * account belongs to, one account per pair), `oidc_sign_in_states` (a started sign-in: its state, nonce and PKCE
 * verifier, used once) and `oidc_sign_in_codes` (the one-time codes a finished sign-in returns with, exchanged once
 * for a token pair). States and codes are stored as SHA-256 digests.
 */
export class AddOidcSignIn1732929800000 implements MigrationInterface {
  name = 'AddOidcSignIn1732929800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD COLUMN "oidc_issuer" varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE "users" ADD COLUMN "oidc_subject" varchar(255) NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_oidc_identity_key" ON "users" ("oidc_issuer", "oidc_subject") WHERE "oidc_subject" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE TABLE "oidc_sign_in_states" (
      "state_digest" char(64) PRIMARY KEY,
      "nonce" varchar(64) NOT NULL,
      "code_verifier" varchar(128) NOT NULL,
      "return_to" text NOT NULL,
      "expires_at" timestamptz NOT NULL
    )`);
    await queryRunner.query(
      `CREATE INDEX "oidc_sign_in_states_expires_at_idx" ON "oidc_sign_in_states" ("expires_at")`,
    );
    await queryRunner.query(`CREATE TABLE "oidc_sign_in_codes" (
      "code_digest" char(64) PRIMARY KEY,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "expires_at" timestamptz NOT NULL
    )`);
    await queryRunner.query(
      `CREATE INDEX "oidc_sign_in_codes_expires_at_idx" ON "oidc_sign_in_codes" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "oidc_sign_in_codes"`);
    await queryRunner.query(`DROP TABLE "oidc_sign_in_states"`);
    await queryRunner.query(`DROP INDEX "users_oidc_identity_key"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "oidc_subject"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "oidc_issuer"`);
  }
}
