import { Injectable } from '@nestjs/common';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { ConversationLocales } from './conversation-locales';
import { type DirectLineTokenResponse } from './dto/directline-token.dto';
import { relayRefused, relayUnreachable } from './relay-token-errors';

/** The Direct Line user id of an inspection-api account: `dl_` and its stable id (what the bot trusts). */
export function directLineUserId(accountId: number): string {
  return `dl_${accountId}`;
}

/** The `user` claim of a relay token (read, not verified: the relay itself just issued it to this server). */
function tokenUser(token: string): unknown {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      user?: unknown;
    };
    return payload.user;
  } catch {
    return undefined;
  }
}

/**
 * Exchanges the bot's Direct Line secret for a one-conversation token at relay-gateway
 * (`POST /v3/directline/tokens/generate`), with the signed-in account embedded (`dl_<user id>`, its user name); with
 * INSPECTION_BOT_HOME_CONVERSATION for the account's home conversation (the one the bot's proactive cards go to).
 * The relay then stamps that id as `from.id` on everything the page sends. The secret stays on this server.
 * The token is refreshable until the chat session's end and no further (`refreshableUntil`: the session cookie's
 * expiry when the token is asked for), so a copy of it does not outlive the session; the page's own token route
 * answers signed-in sessions only.
 */
@Injectable()
export class DirectLineTokenService {
  constructor(
    private readonly environment: InspectionBotEnvironment,
    private readonly locales: ConversationLocales,
  ) {}

  get publicDomain(): string {
    const relay =
      this.environment.INSPECTION_BOT_RELAY_PUBLIC_URL ?? this.environment.INSPECTION_BOT_RELAY_URL;
    return `${relay}/v3/directline`;
  }

  /**
   * A new token for a conversation the page is already in (a reload, a tab brought back, a network change):
   * relay-gateway's `tokens/refresh` with the page's current token. Only for the same conversation and this
   * account's Direct Line user; undefined when the token is no longer valid (the page then starts a new one).
   */
  async refresh(
    account: { userId: number; username: string },
    conversationId: string,
    token: string,
  ): Promise<DirectLineTokenResponse | undefined> {
    let response: Response;
    try {
      response = await fetch(`${this.environment.INSPECTION_BOT_RELAY_URL}/v3/directline/tokens/refresh`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw relayUnreachable();
    }
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const body = (await response.json()) as { token: string; conversationId: string; expires_in: number };
    const userId = directLineUserId(account.userId);
    if (body.conversationId !== conversationId || tokenUser(body.token) !== userId) return undefined;
    return {
      token: body.token,
      conversationId: body.conversationId,
      expiresIn: body.expires_in,
      userId,
      userName: account.username,
      domain: this.publicDomain,
    };
  }

  async generate(
    account: { userId: number; username: string },
    locale?: unknown,
  ): Promise<DirectLineTokenResponse> {
    const userName = account.username;
    const userId = directLineUserId(account.userId);
    let response: Response;
    try {
      response = await fetch(`${this.environment.INSPECTION_BOT_RELAY_URL}/v3/directline/tokens/generate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.environment.INSPECTION_BOT_DIRECTLINE_SECRET}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          user: { id: userId, name: userName },
          // The person's home conversation: proactive cards sent while the page was closed are waiting in it.
          ...(this.environment.INSPECTION_BOT_HOME_CONVERSATION && { homeConversation: true }),
          refreshableUntil: new Date(
            Date.now() + this.environment.INSPECTION_BOT_SESSION_TTL_SECONDS * 1000,
          ).toISOString(),
        }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw relayUnreachable();
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw relayRefused(response.status);
    }
    const body = (await response.json()) as { token: string; conversationId: string; expires_in: number };
    if (typeof locale === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(locale)) {
      this.locales.remember(body.conversationId, locale);
    }
    return {
      token: body.token,
      conversationId: body.conversationId,
      expiresIn: body.expires_in,
      userId,
      userName,
      domain: this.publicDomain,
    };
  }
}
