import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { ActivitiesService } from '../activities/activities.service';
import { validateClientActivity } from '../activities/activity-validation';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { ConversationsService } from '../conversations/conversations.service';
import { startRequestOf } from '../conversations/conversations.controller';
import { type Credential } from '../direct-line/credentials';
import { relayBaseUrl } from '../direct-line/public-url';
import {
  AcceptLegacySchemes,
  DirectLineAuthGuard,
  DirectLineCredential,
  ExemptFromEnhancedAuth,
} from '../direct-line/direct-line-auth.guard';
import { TokenIssuer } from '../direct-line/token-issuer';
import { TokensService } from '../tokens/tokens.service';
import { UploadsService } from '../uploads/uploads.service';
import {
  activityFromV1Message,
  V1_TOKEN_LIFETIME_SECONDS,
  type V1MessageSet,
  v1MessageSetFromActivitySet,
} from './v1-message';

/** The 1.1 start-conversation answer (always 200; `expires_in` is the token's remaining lifetime). */
export interface V1Conversation {
  conversationId: string;
  token: string;
  expires_in: number;
}

/**
 * Direct Line 1.1 under `/api`: a thin adapter over the 3.0 services (same tokens, log, send path and uploads).
 * Schemes `Bearer`, `Connector` and `BotConnector`; tokens live 30 minutes; token answers are bare JSON strings;
 * messages are 1.1 Messages; errors are `{error:{code,message,statusCode}}` with 1.1 codes.
 */
@Controller('api')
@UseGuards(DirectLineAuthGuard)
@AcceptLegacySchemes()
export class DirectLineV1Controller {
  constructor(
    private readonly tokens: TokensService,
    private readonly conversations: ConversationsService,
    private readonly activities: ActivitiesService,
    private readonly uploads: UploadsService,
    private readonly issuer: TokenIssuer,
    private readonly environment: RelayGatewayEnvironment,
  ) {}

  /** Secret → a token (a bare JSON string) for a pre-allocated conversation; the bot is not contacted. */
  @Post('tokens/conversation')
  @ExemptFromEnhancedAuth()
  async generate(
    @DirectLineCredential() credential: Credential,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const issued = await this.tokens.generate(credential, body, V1_TOKEN_LIFETIME_SECONDS);
    response.status(200).json(issued.token);
  }

  /** `GET /api/tokens` appears only in the 1.1 swagger (a string result): the same secret → token exchange. */
  @Get('tokens')
  @ExemptFromEnhancedAuth()
  async generateByGet(
    @DirectLineCredential() credential: Credential,
    @Res() response: Response,
  ): Promise<void> {
    await this.generate(credential, undefined, response);
  }

  /** Token → a new token (a bare JSON string) for the same conversation; POST in the auth article, GET in swagger. */
  @Post('tokens/:conversationId/renew')
  renewByPost(@DirectLineCredential() credential: Credential, @Res() response: Response): void {
    response.status(200).json(this.tokens.refresh(credential, V1_TOKEN_LIFETIME_SECONDS).token);
  }

  @Get('tokens/:conversationId/renew')
  renewByGet(@DirectLineCredential() credential: Credential, @Res() response: Response): void {
    this.renewByPost(credential, response);
  }

  /** Starts the conversation (or returns the token's, already started): 200 either way. */
  @Post('conversations')
  @HttpCode(200)
  async start(
    @DirectLineCredential() credential: Credential,
    @Body() body: unknown,
    @Req() request: Request,
  ): Promise<V1Conversation> {
    const started = await this.conversations.start(credential, startRequestOf(body), request);
    const { conversationId } = started.response;
    if (credential.kind === 'token') {
      return { conversationId, token: credential.token, expires_in: started.response.expires_in };
    }
    const issued = this.issuer.issueConversationToken(
      credential.bot,
      conversationId,
      {},
      V1_TOKEN_LIFETIME_SECONDS,
    );
    return { conversationId, token: issued.token, expires_in: issued.expiresIn };
  }

  /** Polling: the message activities after the watermark, as 1.1 Messages. */
  @Get('conversations/:conversationId/messages')
  async messages(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Query('watermark') watermark: unknown,
    @Req() request: Request,
  ): Promise<V1MessageSet> {
    const set = await this.activities.poll(credential, conversationId, watermark);
    return v1MessageSetFromActivitySet(
      set,
      typeof watermark === 'string' ? watermark : undefined,
      relayBaseUrl(request, this.environment),
    );
  }

  /** Send: the 1.1 Message goes to the bot as a 3.0 message activity through the 3.0 send path; 204 when delivered. */
  @Post('conversations/:conversationId/messages')
  @HttpCode(204)
  async send(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const embedded = credential.kind === 'token' ? credential.userId : undefined;
    const activity = validateClientActivity(
      activityFromV1Message(body, embedded),
      this.environment.RELAY_MAX_ACTIVITY_BYTES,
    );
    const result = await this.activities.send(credential, conversationId, activity);
    response.setHeader('Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`);
  }

  /** Upload (single file or multipart whose `application/vnd.microsoft.bot.message` part is a 1.1 Message): 204. */
  @Post('conversations/:conversationId/upload')
  @HttpCode(204)
  async upload(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Query('userId') userId: unknown,
    @Req() request: Request,
  ): Promise<void> {
    await this.uploads.upload(credential, conversationId, userId, request, (part) =>
      activityFromV1Message({ ...part, from: undefined }),
    );
  }
}
