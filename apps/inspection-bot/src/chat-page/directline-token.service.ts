import { HttpException, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { ConversationLocales } from './conversation-locales';
import { type DirectLineTokenResponse } from './dto/directline-token.dto';

/** The Direct Line user id of an inspection-api account: `dl_` and its stable id (what the bot trusts). */
export function directLineUserId(accountId: number): string {
  return `dl_${accountId}`;
}

/**
 * Exchanges the bot's Direct Line secret for a one-conversation token at relay-gateway
 * (`POST /v3/directline/tokens/generate`), with the signed-in account embedded (`dl_<user id>`, its user name).
 * The relay then stamps that id as `from.id` on everything the page sends. The secret stays on this server.
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
        body: JSON.stringify({ user: { id: userId, name: userName } }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new ServiceUnavailableException('The chat relay is not reachable.');
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new HttpException(`The chat relay refused the token request (${response.status}).`, 502);
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
