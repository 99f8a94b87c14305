import { Module } from '@nestjs/common';
import { ConversationLog } from '@fieldops/conversation-store';
import { DeliveryModule } from '../delivery/delivery.module';
import { BotAttachmentsService } from './bot-attachments.service';
import { BotAttachmentsController, BotConversationsController } from './bot-conversations.controller';
import { BotConversationsService } from './bot-conversations.service';

/** The bot-facing `/v3/conversations` and `/v3/attachments` API. */
@Module({
  imports: [DeliveryModule],
  controllers: [BotConversationsController, BotAttachmentsController],
  providers: [ConversationLog, BotConversationsService, BotAttachmentsService],
})
export class ConversationsModule {}
