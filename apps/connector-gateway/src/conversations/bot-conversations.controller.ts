import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { badArgument, type ChannelAccount } from '@fieldops/contracts';
import { FastPath, publicBaseUrl, sendUntrustedFile } from '@fieldops/platform';
import { AnonymousBotsAllowed } from '../bot-auth/anonymous-bots.decorator';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { CallingBot } from '../bot-auth/calling-bot.decorator';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { type AttachmentInfo, BotAttachmentsService } from './bot-attachments.service';
import { BotConversationsService } from './bot-conversations.service';

/** ResourceResponse / ConversationResourceResponse of the Bot Connector API. */
export interface ResourceResponse {
  id: string;
}
export interface ConversationResourceResponse extends ResourceResponse {
  activityId?: string;
  serviceUrl: string;
}

/**
 * The Bot Connector `/v3/conversations` API bots call on their `serviceUrl`. SendToConversation and ReplyToActivity
 * (every bot message) are also answered before Express by the platform's front (`@FastPath`).
 */
@AnonymousBotsAllowed()
@Controller('v3/conversations')
export class BotConversationsController {
  constructor(
    private readonly conversations: BotConversationsService,
    private readonly attachments: BotAttachmentsService,
    private readonly environment: ConnectorGatewayEnvironment,
  ) {}

  @Post()
  @HttpCode(201)
  async create(
    @CallingBot() caller: BotPrincipal | undefined,
    @Body() body: unknown,
    @Req() request: Request,
  ): Promise<ConversationResourceResponse> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badArgument('Expected ConversationParameters');
    const parameters = body as Record<string, unknown>;
    const bot = this.conversations.callerBot(caller, parameters.bot);
    const { record, initial } = await this.conversations.create(bot, parameters);
    return {
      id: record.conversationId,
      ...(initial && { activityId: initial.activity.id }),
      serviceUrl: `${publicBaseUrl(request, this.environment.CONNECTOR_PUBLIC_URL, this.environment.CONNECTOR_ALLOWED_HOSTS)}/`,
    };
  }

  // Registered before `:activityId` so that "history" is not taken for an activity id.
  @Post(':conversationId/activities/history')
  @HttpCode(200)
  async history(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
  ): Promise<ResourceResponse> {
    const access = await this.conversations.access(conversationId, caller);
    return this.conversations.history(access, body);
  }

  @Post(':conversationId/activities')
  @HttpCode(200)
  @FastPath()
  async send(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
  ): Promise<ResourceResponse> {
    return this.conversations.send(caller, conversationId, body);
  }

  @Post(':conversationId/activities/:activityId')
  @HttpCode(200)
  @FastPath()
  async reply(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Param('activityId') activityId: string,
    @Body() body: unknown,
  ): Promise<ResourceResponse> {
    return this.conversations.send(caller, conversationId, body, activityId);
  }

  @Put(':conversationId/activities/:activityId')
  @HttpCode(200)
  async update(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Param('activityId') activityId: string,
    @Body() body: unknown,
  ): Promise<ResourceResponse> {
    const access = await this.conversations.access(conversationId, caller);
    return this.conversations.update(access, activityId, body);
  }

  @Delete(':conversationId/activities/:activityId')
  @HttpCode(200)
  async remove(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Param('activityId') activityId: string,
  ): Promise<void> {
    const access = await this.conversations.access(conversationId, caller);
    await this.conversations.delete(access, activityId);
  }

  @Get(':conversationId/members')
  async members(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
  ): Promise<ChannelAccount[]> {
    return this.conversations.members(await this.conversations.access(conversationId, caller));
  }

  @Get(':conversationId/activities/:activityId/members')
  async activityMembers(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Param('activityId') activityId: string,
  ): Promise<ChannelAccount[]> {
    const access = await this.conversations.access(conversationId, caller);
    await this.conversations.find(access, activityId);
    return this.conversations.members(access);
  }

  @Post(':conversationId/attachments')
  @HttpCode(200)
  async upload(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
  ): Promise<ResourceResponse> {
    return this.attachments.upload(await this.conversations.access(conversationId, caller), body);
  }
}

/** `GET /v3/attachments/{id}` (AttachmentInfo) and `/views/{view}` (the bytes, served as an untrusted file). */
@AnonymousBotsAllowed()
@Controller('v3/attachments')
export class BotAttachmentsController {
  constructor(private readonly attachments: BotAttachmentsService) {}

  @Get(':attachmentId')
  info(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('attachmentId') attachmentId: string,
  ): Promise<AttachmentInfo> {
    return this.attachments.info(attachmentId, caller);
  }

  @Get(':attachmentId/views/:viewId')
  async view(
    @CallingBot() caller: BotPrincipal | undefined,
    @Param('attachmentId') attachmentId: string,
    @Param('viewId') viewId: string,
    @Res() response: Response,
  ): Promise<void> {
    sendUntrustedFile(response, await this.attachments.view(attachmentId, viewId, caller));
  }
}
