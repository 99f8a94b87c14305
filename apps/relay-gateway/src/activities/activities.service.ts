import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Activity,
  type ActivitySet,
  botError,
  BotFrameworkError,
  tooManyRequests,
} from '@fieldops/contracts';
import {
  CONVERSATION_STORE,
  ConversationLog,
  type ConversationStore,
  stampClientActivity,
  UnknownConversationError,
} from '@fieldops/conversation-store';
import { DependencyUnavailableException, LOGGER, type Logger } from '@fieldops/platform';
import { type RateLimit, RateLimitStore } from '@fieldops/rate-limits';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { ConversationMembershipService } from '../conversations/conversation-membership.service';
import { ConversationFactsCache } from '../conversations/conversation-facts.cache';
import { conversationNotFound } from '../conversations/conversations.service';
import { type Credential } from '../direct-line/credentials';
import { parseWatermark } from '../direct-line/watermark';
import { BOT_DELIVERY, type BotDelivery } from '../delivery/bot-delivery';

const POLL_PAGE_SIZE = 500;

export interface SendResult {
  id: string;
  /** Milliseconds spent in the gateway, bot delivery excluded. */
  processingMs: number;
  /** For an invoke activity the bot answered: its HTTP status and JSON body, which the client receives. */
  invokeResponse?: { status: number; body?: unknown };
}

@Injectable()
export class ActivitiesService {
  private readonly conversationLimit: RateLimit;

  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    @Inject(BOT_DELIVERY) private readonly delivery: BotDelivery,
    private readonly log: ConversationLog,
    private readonly membership: ConversationMembershipService,
    private readonly environment: RelayGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly facts: ConversationFactsCache,
    rateLimits: RateLimitStore,
  ) {
    // Counted in the relay's rate-limit store: Redis when REDIS_URL is set, so every instance counts together.
    this.conversationLimit = rateLimits.limit({
      name: 'sends-conversation',
      points: environment.RELAY_RATE_LIMIT_PER_CONVERSATION,
      windowSeconds: 60,
    });
  }

  /**
   * Stamps the client's activity, appends the echo to the log and publishes it (so it precedes any reply), then
   * delivers it to the bot and answers with the bot's outcome: the echo's id, 502 BotError or 504 BotError, or 503
   * ServiceUnavailable when connector-gateway is away. An invoke answers with the bot's own status and body instead
   * (the bot's invoke response).
   */
  async send(credential: Credential, conversationId: string, activity: Activity): Promise<SendResult> {
    const started = performance.now();
    // A rate-limit store that cannot answer (Redis down) does not refuse the send; the append reports the outage.
    const rate = await this.conversationLimit.consume(conversationId).catch((error: unknown) => {
      this.logger.warn(
        { err: error, conversationId },
        'rate limit not counted: the rate-limit store did not answer',
      );
      return undefined;
    });
    if (rate && !rate.allowed) {
      throw tooManyRequests('Too many activities in this conversation', rate.retryAfterSeconds);
    }
    const bot = credential.bot;
    let botId = this.facts.botOf(conversationId);
    if (botId === undefined) {
      const record = await this.store.get(conversationId);
      if (!record) throw conversationNotFound();
      botId = record.botId;
      this.facts.rememberBot(conversationId, botId);
    }
    if (botId !== bot.id) throw conversationNotFound();

    const stamped = stampClientActivity(conversationId, activity, {
      bot,
      userId: credential.kind === 'token' ? credential.userId : undefined,
      serviceUrl: this.environment.RELAY_BOT_SERVICE_URL,
    });
    // The first message of a user not announced at start is preceded by the user's conversationUpdate.
    const announcing = performance.now();
    const announced = await this.membership.announceUserIfNew(bot, conversationId, stamped.from);
    let botMs = announced ? performance.now() - announcing : 0;
    const correlationId = randomUUID();
    const echo = await this.log.append(stamped, correlationId).catch((error: unknown) => {
      // Expired from the store since its bot was remembered.
      if (error instanceof UnknownConversationError) throw conversationNotFound();
      throw error;
    });

    const delivering = performance.now();
    const outcome = await this.delivery.deliver({ bot, activity: echo.activity, correlationId });
    botMs += performance.now() - delivering;
    const processingMs = performance.now() - started - botMs;
    if (echo.activity.type === 'invoke' && (outcome.kind === 'delivered' || outcome.kind === 'rejected')) {
      return {
        id: echo.activity.id!,
        processingMs,
        invokeResponse: { status: outcome.status, body: outcome.body },
      };
    }
    switch (outcome.kind) {
      case 'delivered':
        return { id: echo.activity.id!, processingMs };
      case 'rejected':
        throw botError(502, 'Failed to send activity: bot returned an error', outcome.status);
      case 'timeout':
        throw botError(504, 'Failed to send activity: bot timed out');
      case 'unreachable':
        this.logger.warn({ conversationId, bot: bot.id, reason: outcome.reason }, 'bot unreachable');
        throw botError(502, 'Failed to send activity: bot unreachable');
      case 'unavailable':
        // The platform's delivery path is away, not the bot: 503 with Retry-After (the activity is in the log).
        this.logger.warn({ conversationId, bot: bot.id, reason: outcome.reason }, 'bot delivery unavailable');
        throw new DependencyUnavailableException(outcome.reason);
    }
  }

  /**
   * Polling: everything after the watermark except `typing`. Never 5xx: a back-end fault answers an empty set with
   * the same watermark (DirectLineJS stops polling for good after one error).
   */
  async poll(
    credential: Credential,
    conversationId: string,
    watermarkParameter: unknown,
  ): Promise<ActivitySet> {
    const watermark = parseWatermark(watermarkParameter);
    const unchanged: ActivitySet = {
      activities: [],
      watermark: watermark === undefined ? undefined : String(watermark),
    };
    try {
      const record = await this.store.get(conversationId);
      if (!record || record.botId !== credential.bot.id) throw conversationNotFound();
      const entries = await this.store.read(conversationId, watermark, POLL_PAGE_SIZE);
      const last = entries.at(-1);
      if (!last) return unchanged;
      return {
        activities: entries.map((entry) => entry.activity).filter((activity) => activity.type !== 'typing'),
        watermark: String(last.seq),
      };
    } catch (error) {
      if (error instanceof BotFrameworkError) throw error;
      this.logger.warn({ err: error, conversationId }, 'polling failed; answering an empty set');
      return unchanged;
    }
  }
}
