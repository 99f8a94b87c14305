import { postgresRateLimitTableDdl } from '@fieldops/rate-limits';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Counters of the login throttle (rate-limiter-flexible's PostgreSQL table), shared by every replica. */
export class CreateRateLimits1732600000000 implements MigrationInterface {
  name = 'CreateRateLimits1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(postgresRateLimitTableDdl('rate_limits'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "rate_limits"');
  }
}
