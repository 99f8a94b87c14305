import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Request } from 'express';
import {
  CONVERSATION_STORE,
  type ConversationRecord,
  type ConversationStore,
} from '@fieldops/conversation-store';
import { type BotFrameworkError, notFound } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { relayBaseUrl, streamUrlFor } from '../direct-line/public-url';
import { TokenIssuer } from '../direct-line/token-issuer';
import { FROM_START, parseWatermark } from '../direct-line/watermark';
import { ConversationMembershipService } from './conversation-membership.service';

export interface ConversationResponse {
  conversationId: string;
  token: string;
  expires_in: number;
  streamUrl?: string;
  referenceGrammarId?: string;
}

/** URL-safe, unguessable: 22 base64url characters. */
export function newConversationId(): string {
  return randomBytes(16).toString('base64url');
}

export interface StartRequest {
  user?: { id?: string; name?: string };
  locale?: string;
}

@Injectable()
export class ConversationsService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    private readonly issuer: TokenIssuer,
    private readonly membership: ConversationMembershipService,
    private readonly environment: RelayGatewayEnvironment,
  ) {}

  /**
   * Starts a conversation (created: true) or returns the one the token is bound to (created: false). The first start
   * announces the members to the bot; so does the first start with each home-conversation token (`join` claim).
   */
  async start(
    credential: Credential,
    body: StartRequest,
    request: Request,
  ): Promise<{ created: boolean; response: ConversationResponse; record: ConversationRecord }> {
    relayBaseUrl(request, this.environment); // a host not allowed is refused before anything is created
    const bot = credential.bot;
    const conversationId = credential.kind === 'token' ? credential.conversationId : newConversationId();
    const bodyUser = typeof body.user?.id === 'string' && body.user.id !== '' ? body.user : undefined;
    const userId = (credential.kind === 'token' ? credential.userId : undefined) ?? bodyUser?.id;
    const userName = (credential.kind === 'token' ? credential.userName : undefined) ?? bodyUser?.name;
    const fresh: ConversationRecord = { conversationId, botId: bot.id, createdAt: Date.now() };
    if (userId) fresh.userId = userId;
    if (userName) fresh.userName = userName;
    if (typeof body.locale === 'string') fresh.locale = body.locale;
    await this.store.create(fresh);
    const record = userId
      ? await this.store.setUserIfUnset(conversationId, { userId, userName })
      : await this.store.get(conversationId);
    if (!record || record.botId !== bot.id) throw conversationNotFound();
    const created = await this.store.claimMilestone(conversationId, 'started');
    // A home conversation opened with a newly generated token (docs/decisions/proactive-messages.md): the first
    // start with it is a new opening, announced to the bot like a conversation's start; a retried start is not.
    const joined =
      credential.kind === 'token' && credential.join !== undefined && record.userId !== undefined
        ? await this.store.claimJoin(conversationId, credential.join)
        : false;
    if (created) {
      // A conversation pre-allocated by tokens/generate has no locale yet: the start body's names it.
      await this.membership.announceStart(bot, conversationId, {
        userId: record.userId,
        userName: record.userName,
        locale: record.locale ?? fresh.locale,
      });
    } else if (joined && record.userId !== undefined) {
      await this.membership.announceJoin(bot, conversationId, {
        userId: record.userId,
        userName: record.userName,
        locale: fresh.locale ?? record.locale,
      });
    }
    return {
      created,
      record,
      response: this.conversationResponse(credential, conversationId, FROM_START, request),
    };
  }

  /** A fresh streamUrl (and token) for an existing conversation. */
  async reconnect(
    credential: Credential,
    conversationId: string,
    watermarkParameter: unknown,
    request: Request,
  ): Promise<ConversationResponse> {
    const watermark = parseWatermark(watermarkParameter);
    const record = await this.store.get(conversationId);
    if (!record || record.botId !== credential.bot.id) throw conversationNotFound();
    let streamWatermark = watermark === undefined ? FROM_START : String(watermark);
    if (
      watermark === undefined &&
      watermarkParameter === undefined &&
      this.environment.RELAY_RECONNECT_REPLAY === 'new'
    ) {
      streamWatermark = String((await this.store.lastSeq(conversationId)) ?? -1);
    }
    return this.conversationResponse(credential, conversationId, streamWatermark, request);
  }

  private conversationResponse(
    credential: Credential,
    conversationId: string,
    watermark: string,
    request: Request,
  ): ConversationResponse {
    const bot = credential.bot;
    let token: string;
    let expiresIn: number;
    if (credential.kind === 'token') {
      token = credential.token;
      expiresIn = Math.max(0, credential.expiresAt - Math.floor(Date.now() / 1000));
    } else {
      ({ token, expiresIn } = this.issuer.issueConversationToken(bot, conversationId));
    }
    const streamToken = this.issuer.issueStreamToken(
      bot,
      conversationId,
      credential.kind === 'token' ? credential.origins : [],
    );
    return {
      conversationId,
      token,
      expires_in: expiresIn,
      streamUrl: streamUrlFor(request, this.environment, conversationId, watermark, streamToken),
    };
  }
}

export function conversationNotFound(): BotFrameworkError {
  return notFound('Conversation not found');
}
