import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { type Request, type Response } from 'express';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { ChatSessions } from '../sign-in/chat-sessions';
import { NOT_SIGNED_IN, tooManyRequests } from '../sign-in/session.controller';
import { SignInThrottle } from '../sign-in/sign-in-throttle';
import { ChatPageAssets } from './chat-page-assets';
import { CHAT_PAGE_TEXT, pageLanguage } from './chat-page-text';
import { renderChatPage } from './chat-page.html';
import { DirectLineTokenService } from './directline-token.service';
import { type DirectLineTokenRequest, type DirectLineTokenResponse } from './dto/directline-token.dto';

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

/**
 * The service worker's own policy. A worker script's Content-Security-Policy governs the worker itself: the
 * platform's API default (`default-src 'none'`) would block every fetch it makes (its install, `cache.addAll`
 * of the page shell, fails and the worker never activates). It fetches from the page's origin only.
 */
export const SERVICE_WORKER_CSP = "default-src 'none'; connect-src 'self'";

/**
 * The bot's website: the chat page (its front-end build: script with Web Chat bundled, styles, web app manifest,
 * icons, service worker) and the server-side Direct Line token route.
 */
@Controller()
export class ChatPageController {
  private readonly pages = new Map<string, string>();
  private readonly csp: string;
  private readonly assets = new ChatPageAssets();

  constructor(
    private readonly environment: InspectionBotEnvironment,
    private readonly tokens: DirectLineTokenService,
    private readonly sessions: ChatSessions,
    private readonly throttle: SignInThrottle,
  ) {
    for (const language of ['en', 'zh-CN'] as const) {
      this.pages.set(
        language,
        renderChatPage(this.assets.template, { language, text: CHAT_PAGE_TEXT[language] }),
      );
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

  /** A QR label's short path: the chat page asked to open that device (`?device=CODE`). */
  @Get('d/:code')
  deviceLink(@Param('code') code: string, @Res() response: Response): void {
    response.redirect(302, `../?device=${encodeURIComponent(code.slice(0, 64))}`);
  }

  /** No icon at this path (the page names its icons): answered so browsers do not log a 404. */
  @Get('favicon.ico')
  @HttpCode(204)
  favicon(): void {}

  /** The page's built files: hashed assets cached for a year, the rest (service worker included) revalidated. */
  @Get(['assets/:file', 'icons/:file', 'sw.js', 'manifest.webmanifest'])
  asset(@Req() request: Request, @Res() response: Response): void {
    const asset = this.assets.get(request.path.replace(/^\//, ''));
    if (!asset) throw new NotFoundException();
    response.sendFile(asset.file, {
      headers: {
        'content-type': asset.contentType,
        'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
        ...(request.path === '/sw.js' ? { 'content-security-policy': SERVICE_WORKER_CSP } : {}),
      },
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
    if (
      typeof body?.conversationId === 'string' &&
      typeof body.token === 'string' &&
      body.token.length < 4096
    ) {
      const rejoined = await this.tokens.refresh(live.account, body.conversationId, body.token);
      if (rejoined) return rejoined;
    }
    return this.tokens.generate(live.account, body?.locale);
  }
}
