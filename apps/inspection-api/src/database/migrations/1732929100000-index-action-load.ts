import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The columns `GET /api/statistics/actions/` reads (`actionStatisticsSql`): who, which status, due when, on which
 * device. The statistics group the actions from this index alone (an index-only scan) instead of reading every
 * action's row with its texts.
 */
export class IndexActionLoad1732929100000 implements MigrationInterface {
  name = 'IndexActionLoad1732929100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "actions_load_idx" ON "actions" ("assignee_id", "status", "due_date") INCLUDE ("device_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "actions_load_idx"`);
  }
}
