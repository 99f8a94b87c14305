import { dirname, join } from 'node:path';
import { Body, Controller, Get, Header, HttpCode, Post, Res } from '@nestjs/common';
import { type Response } from 'express';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { renderChatPage } from './chat-page.html';
import { chatPageSettings } from './chat-page.security-policy';
import { DirectLineTokenService } from './directline-token.service';
import { type DirectLineTokenRequest, type DirectLineTokenResponse } from './dto/directline-token.dto';

/** Web Chat's prebuilt browser bundle from the installed npm package (React included; no CDN). */
export const WEBCHAT_BUNDLE = join(
  dirname(require.resolve('botframework-webchat')),
  '..',
  'dist',
  'webchat.js',
);

/** The bot's website: the chat page, the Web Chat bundle and the server-side Direct Line token route. */
@Controller()
export class ChatPageController {
  private readonly page: string;

  constructor(
    environment: InspectionBotEnvironment,
    private readonly tokens: DirectLineTokenService,
  ) {
    this.page = renderChatPage(chatPageSettings(environment));
  }

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-cache')
  chatPage(): string {
    return this.page;
  }

  /** No icon: answered so browsers do not log a 404 on every visit. */
  @Get('favicon.ico')
  @HttpCode(204)
  favicon(): void {}

  @Get('webchat.js')
  webChatBundle(@Res() response: Response): void {
    response.sendFile(WEBCHAT_BUNDLE, {
      maxAge: '1h',
      headers: { 'content-type': 'text/javascript; charset=utf-8' },
    });
  }

  @Post('api/directline/token')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  token(@Body() body: DirectLineTokenRequest | undefined): Promise<DirectLineTokenResponse> {
    return this.tokens.generate(body?.name, body?.locale);
  }
}
