import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type Activity } from '@fieldops/contracts';
import { JsonPoster, LOGGER, type Logger, parseJsonBody } from '@fieldops/platform';
import { type BotRegistration } from '../bots/registered-bot';
import { BotTokenMinter } from '../bot-tokens/bot-token-minter.service';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { RefusedReplies } from './refused-replies';

/** How one delivery ended, as `POST /internal/v1/deliveries` reports it to the relay. */
export type DeliveryReport =
  | { kind: 'delivered'; status: number; body?: unknown }
  | { kind: 'rejected'; status: number; body?: unknown }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'unavailable'; reason: string };

/** Largest bot answer read back (invoke responses); longer bodies are dropped. */
const MAX_ANSWER_BYTES = 262_144;

/**
 * POSTs an activity to a bot's messaging endpoint with a channel token (`aud` = the bot's app id,
 * `serviceurl` = the activity's serviceUrl; none for anonymous bots) and a deadline. No re-delivery.
 *
 * A turn that failed (5xx, or no answer by the deadline) after the platform refused one of the bot's replies to this
 * activity with 503 ({@link RefusedReplies}) is reported `unavailable`: the relay answers the client 503 with
 * Retry-After (try again), not 502/504 `BotError` (the bot is broken).
 */
@Injectable()
export class BotDeliverer implements OnApplicationShutdown {
  private readonly poster = new JsonPoster();

  constructor(
    private readonly minter: BotTokenMinter,
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly refusedReplies: RefusedReplies,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deliver(bot: BotRegistration, activity: Activity, correlationId?: string): Promise<DeliveryReport> {
    const body = JSON.stringify(activity);
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
    if (!bot.anonymous) {
      const serviceUrl = typeof activity.serviceUrl === 'string' ? activity.serviceUrl : '';
      headers.Authorization = `Bearer ${this.minter.mint(bot, serviceUrl).token}`;
    }
    const conversationId = activity.conversation?.id;
    if (typeof conversationId === 'string') headers['x-ms-conversation-id'] = conversationId;
    if (correlationId) headers['X-Correlation-Id'] = correlationId;
    const answer = await this.poster.post(bot.messagingEndpoint, headers, body, {
      timeoutMs: this.environment.CONNECTOR_DELIVERY_TIMEOUT_MS,
      readBodyUpTo: activity.type === 'invoke' ? MAX_ANSWER_BYTES : undefined,
    });
    if (answer.kind === 'timeout') {
      if (await this.repliesRefused(activity)) return this.platformAway(bot, activity, correlationId);
      this.logger.info({ bot: bot.id, correlationId }, 'bot timed out');
      return { kind: 'timeout' };
    }
    if (answer.kind === 'failed') {
      this.logger.warn({ bot: bot.id, correlationId, reason: answer.reason }, 'bot unreachable');
      return { kind: 'unreachable', reason: answer.reason };
    }
    const { status } = answer;
    const delivered = status === 200 || status === 201 || status === 202;
    if (status >= 500 && (await this.repliesRefused(activity)))
      return this.platformAway(bot, activity, correlationId);
    if (!delivered) this.logger.info({ bot: bot.id, status, correlationId }, 'bot refused an activity');
    const parsed = parseJsonBody(answer.body);
    return parsed === undefined
      ? { kind: delivered ? 'delivered' : 'rejected', status }
      : { kind: delivered ? 'delivered' : 'rejected', status, body: parsed };
  }

  /** Whether the platform refused (503) a reply of the bot's to this activity. */
  private repliesRefused(activity: Activity): Promise<boolean> {
    const conversationId = activity.conversation?.id;
    if (typeof conversationId !== 'string' || typeof activity.id !== 'string') return Promise.resolve(false);
    return this.refusedReplies.includes(conversationId, activity.id);
  }

  private platformAway(bot: BotRegistration, activity: Activity, correlationId?: string): DeliveryReport {
    const reason = "the bot's turn failed after the conversation log refused its reply (503)";
    this.logger.warn({ bot: bot.id, conversationId: activity.conversation?.id, correlationId }, reason);
    return { kind: 'unavailable', reason };
  }

  /** Closes the idle keep-alive connections to bots (at shutdown). */
  onApplicationShutdown(): void {
    this.poster.close();
  }
}
