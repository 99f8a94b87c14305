import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { lowerKeys } from '../direct-line/case-insensitive';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { type ConversationResponse, ConversationsService, type StartRequest } from './conversations.service';

@Controller([...V3_PREFIXES])
@UseGuards(DirectLineAuthGuard)
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  /** 201 for a new conversation, 200 when the token's conversation was already started. */
  @Post('conversations')
  async start(
    @DirectLineCredential() credential: Credential,
    @Body() body: unknown,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ConversationResponse> {
    const started = await this.conversations.start(credential, startRequestOf(body), request);
    response.status(started.created ? 201 : 200);
    return started.response;
  }

  @Get('conversations/:conversationId')
  @HttpCode(200)
  reconnect(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Query('watermark') watermark: unknown,
    @Req() request: Request,
  ): Promise<ConversationResponse> {
    return this.conversations.reconnect(credential, conversationId, watermark, request);
  }
}

/** The start body (DirectLineJS sends `{"user":{"id"},"locale"}`), names read case-insensitively. */
export function startRequestOf(body: unknown): StartRequest {
  const record = lowerKeys(body);
  const user = lowerKeys(record.user);
  const result: StartRequest = {};
  if (typeof user.id === 'string' || typeof user.name === 'string') {
    result.user = {};
    if (typeof user.id === 'string') result.user.id = user.id;
    if (typeof user.name === 'string') result.user.name = user.name;
  }
  if (typeof record.locale === 'string') result.locale = record.locale;
  return result;
}
