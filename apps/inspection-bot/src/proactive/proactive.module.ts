import { Module } from '@nestjs/common';
import { BotModule } from '../bot/bot.module';
import { NotificationsController } from './notifications.controller';
import { ProactiveMessages } from './proactive-messages';

/** Messages the bot sends on its own initiative: notifications inspection-api hands it (POST /api/notifications). */
@Module({
  imports: [BotModule],
  controllers: [NotificationsController],
  providers: [ProactiveMessages],
})
export class ProactiveModule {}
