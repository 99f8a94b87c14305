import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Notifications in the chat (docs/protocols/notifications.md): whether a person is also told in the chat. Rows of
 * `notifications` on the `chat` channel need no change of the table (its channel is a name).
 */
export class AddChatNotifications1732931000000 implements MigrationInterface {
  name = 'AddChatNotifications1732931000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notification_preferences" ADD COLUMN "chat" boolean NOT NULL DEFAULT true`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_preferences" DROP COLUMN "chat"`);
  }
}
