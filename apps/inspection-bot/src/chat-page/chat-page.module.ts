import { Module } from '@nestjs/common';
import { ChatPageController } from './chat-page.controller';
import { DirectLineTokenService } from './directline-token.service';

@Module({ controllers: [ChatPageController], providers: [DirectLineTokenService] })
export class ChatPageModule {}
