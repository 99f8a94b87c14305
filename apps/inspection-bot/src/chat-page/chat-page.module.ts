import { Global, Module } from '@nestjs/common';
import { ChatSessionGuard } from '../sign-in/chat-session.guard';
import { ChatSessions } from '../sign-in/chat-sessions';
import { InspectionAccounts } from '../sign-in/inspection-accounts';
import { InspectorTokens } from '../sign-in/inspector-tokens';
import { SessionController } from '../sign-in/session.controller';
import { SignInThrottle } from '../sign-in/sign-in-throttle';
import { ChatPageController } from './chat-page.controller';
import { ConversationLocales } from './conversation-locales';
import { DirectLineTokenService } from './directline-token.service';

/** The inspectors' website: the chat page, its sign-in (session cookie) and the Direct Line token route. */
@Global()
@Module({
  controllers: [ChatPageController, SessionController],
  providers: [
    DirectLineTokenService,
    ConversationLocales,
    ChatSessions,
    ChatSessionGuard,
    InspectionAccounts,
    SignInThrottle,
    InspectorTokens,
  ],
  exports: [ConversationLocales, InspectorTokens],
})
export class ChatPageModule {}
