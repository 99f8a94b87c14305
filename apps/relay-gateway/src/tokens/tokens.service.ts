import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_STORE, type ConversationStore } from '@fieldops/conversation-store';
import { badArgument } from '@fieldops/contracts';
import { newConversationId } from '../conversations/conversations.service';
import { type Credential } from '../direct-line/credentials';
import { assertEnhancedAuthentication, trustedOriginsFor } from '../direct-line/enhanced-authentication';
import { TokenIssuer } from '../direct-line/token-issuer';
import { parseTokenParameters } from './dto/token-parameters';

export interface TokenResponse {
  conversationId: string;
  token: string;
  expires_in: number;
}

@Injectable()
export class TokensService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    private readonly issuer: TokenIssuer,
  ) {}

  /**
   * Secret → a token for a new (pre-allocated, not started) conversation, or with `homeConversation` for the user's
   * home conversation (where the bot's proactive messages to the user are waiting); the bot is not contacted. A
   * home-conversation token carries a new `join` id, which its refreshes keep.
   */
  async generate(credential: Credential, body: unknown, lifetimeSeconds?: number): Promise<TokenResponse> {
    if (credential.kind !== 'secret') {
      throw badArgument('Cannot use a scoped token to generate a different scoped token', 403);
    }
    const parameters = parseTokenParameters(body);
    assertEnhancedAuthentication(credential.bot, parameters.userId);
    const fresh = {
      conversationId: newConversationId(),
      botId: credential.bot.id,
      createdAt: Date.now(),
      ...(parameters.userId ? { userId: parameters.userId } : {}),
      ...(parameters.userName ? { userName: parameters.userName } : {}),
    };
    let conversationId = fresh.conversationId;
    if (parameters.home && parameters.userId !== undefined)
      ({ conversationId } = await this.store.homeConversation({ ...fresh, userId: parameters.userId }));
    else await this.store.create(fresh);
    // With enhanced authentication the configured origins win; otherwise the caller's (if any) bind the token.
    const origins = trustedOriginsFor(credential.bot, parameters.trustedOrigins);
    const issued = this.issuer.issueConversationToken(
      credential.bot,
      conversationId,
      {
        userId: parameters.userId,
        userName: parameters.userName,
        origins: [...origins],
        until: parameters.until,
        // Each home-conversation token is an opening of its own: its first start announces the user again.
        join: parameters.home ? randomUUID() : undefined,
      },
      lifetimeSeconds,
    );
    return { conversationId, token: issued.token, expires_in: issued.expiresIn };
  }

  /** An unexpired token → a new one for the same conversation, user, origins and ceiling (never past it). */
  refresh(credential: Credential, lifetimeSeconds?: number): TokenResponse {
    if (credential.kind !== 'token') {
      throw badArgument('This method can only be used to renew an existing conversation token', 403);
    }
    const issued = this.issuer.issueConversationToken(
      credential.bot,
      credential.conversationId,
      {
        userId: credential.userId,
        userName: credential.userName,
        origins: credential.origins,
        until: credential.until,
        join: credential.join,
      },
      lifetimeSeconds,
    );
    return { conversationId: credential.conversationId, token: issued.token, expires_in: issued.expiresIn };
  }
}
