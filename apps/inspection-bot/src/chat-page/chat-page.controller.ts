import { dirname, join } from 'node:path';
import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { ChatSessions } from '../sign-in/chat-sessions';
import { NOT_SIGNED_IN, tooManyRequests } from '../sign-in/session.controller';
import { SignInThrottle } from '../sign-in/sign-in-throttle';
import { CHAT_PAGE_CSS } from './chat-page-styles';
import { CHAT_PAGE_SCRIPT } from './chat-page-script';
import { CHAT_PAGE_TEXT, pageLanguage } from './chat-page-text';
import { renderChatPage } from './chat-page.html';
import { DirectLineTokenService } from './directline-token.service';
import { type DirectLineTokenRequest, type DirectLineTokenResponse } from './dto/directline-token.dto';

/** Web Chat's prebuilt browser bundle from the installed npm package (React included; no CDN). */
export const WEBCHAT_BUNDLE = join(
  dirname(require.resolve('botframework-webchat')),
  '..',
  'dist',
  'webchat.js',
);

/**
 * The page's Content-Security-Policy: its own script and style files, Web Chat's injected styles, the relay for
 * Direct Line (HTTP and WebSocket), pictures from anywhere the records' media URLs point.
 */
export function chatPageCsp(relayPublicUrl: string): string {
  const relay = new URL(relayPublicUrl).origin;
  const socket = relay.replace(/^http/, 'ws');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    'img-src * data: blob:',
    `connect-src 'self' ${relay} ${socket} blob: data:`,
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The bot's website: the chat page, the Web Chat bundle and the server-side Direct Line token route. */
@Controller()
export class ChatPageController {
  private readonly pages = new Map<string, string>();
  private readonly csp: string;

  constructor(
    private readonly environment: InspectionBotEnvironment,
    private readonly tokens: DirectLineTokenService,
    private readonly sessions: ChatSessions,
    private readonly throttle: SignInThrottle,
  ) {
    for (const language of ['en', 'zh-CN'] as const) {
      this.pages.set(language, renderChatPage({ language, text: CHAT_PAGE_TEXT[language] }));
    }
    this.csp = chatPageCsp(
      environment.INSPECTION_BOT_RELAY_PUBLIC_URL ?? environment.INSPECTION_BOT_RELAY_URL,
    );
  }

  /** The page in the language of `?locale=` or the browser's (as the bot's language is chosen). */
  @Get()
  chatPage(
    @Query('locale') locale: unknown,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): string {
    const fallback = this.environment.INSPECTION_BOT_DEFAULT_LOCALE === 'zh-Hans' ? 'zh-CN' : 'en';
    const language = pageLanguage(locale, request.headers['accept-language'], fallback);
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.setHeader('cache-control', 'no-cache');
    response.setHeader('vary', 'Accept-Language');
    response.setHeader('content-security-policy', this.csp);
    response.setHeader('x-content-type-options', 'nosniff');
    response.setHeader('referrer-policy', 'same-origin');
    return this.pages.get(language) ?? '';
  }

  @Get('chat-page.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'no-cache')
  chatPageScript(): string {
    return CHAT_PAGE_SCRIPT;
  }

  @Get('chat-page.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'no-cache')
  chatPageStyles(): string {
    return CHAT_PAGE_CSS;
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
  async token(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() body: DirectLineTokenRequest | undefined,
  ): Promise<DirectLineTokenResponse> {
    const live = await this.sessions.current(request, response);
    if (!live) throw NOT_SIGNED_IN();
    const wait = await this.throttle.token(live.sid);
    if (wait !== undefined) throw tooManyRequests(wait, 'Too many chat tokens for this session.');
    return this.tokens.generate(live.account, body?.locale);
  }
}
