import { Global, Module } from '@nestjs/common';
import { ChatPageController } from './chat-page.controller';
import { ConversationLocales } from './conversation-locales';
import { DirectLineTokenService } from './directline-token.service';

@Global()
@Module({
  controllers: [ChatPageController],
  providers: [DirectLineTokenService, ConversationLocales],
  exports: [ConversationLocales],
})
export class ChatPageModule {}
