import { Inject, Injectable } from '@nestjs/common';
import { type Activity } from '@fieldops/contracts';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type BotRegistration } from '../bots/registered-bot';
import { BotTokenMinter } from '../bot-tokens/bot-token-minter.service';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

/** How one delivery ended, as `POST /internal/v1/deliveries` reports it to the relay. */
export type DeliveryReport =
  | { kind: 'delivered'; status: number; body?: unknown }
  | { kind: 'rejected'; status: number; body?: unknown }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

/** Largest bot answer read back (invoke responses); longer bodies are dropped. */
const MAX_ANSWER_BYTES = 262_144;

/**
 * POSTs an activity to a bot's messaging endpoint with a channel token (`aud` = the bot's app id,
 * `serviceurl` = the activity's serviceUrl; none for anonymous bots) and a deadline. No re-delivery.
 */
@Injectable()
export class BotDeliverer {
  constructor(
    private readonly minter: BotTokenMinter,
    private readonly environment: ConnectorGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deliver(bot: BotRegistration, activity: Activity, correlationId?: string): Promise<DeliveryReport> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
    if (!bot.anonymous) {
      const serviceUrl = typeof activity.serviceUrl === 'string' ? activity.serviceUrl : '';
      headers.Authorization = `Bearer ${this.minter.mint(bot.appId, serviceUrl).token}`;
    }
    const conversationId = activity.conversation?.id;
    if (typeof conversationId === 'string') headers['x-ms-conversation-id'] = conversationId;
    if (correlationId) headers['X-Correlation-Id'] = correlationId;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.environment.CONNECTOR_DELIVERY_TIMEOUT_MS);
    try {
      const response = await fetch(bot.messagingEndpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(activity),
        signal: controller.signal,
      });
      const body = activity.type === 'invoke' ? await readJson(response) : await discard(response);
      const status = response.status;
      const delivered = status === 200 || status === 201 || status === 202;
      if (!delivered) this.logger.info({ bot: bot.id, status, correlationId }, 'bot refused an activity');
      return body === undefined
        ? { kind: delivered ? 'delivered' : 'rejected', status }
        : { kind: delivered ? 'delivered' : 'rejected', status, body };
    } catch (error) {
      if (controller.signal.aborted) {
        this.logger.info({ bot: bot.id, correlationId }, 'bot timed out');
        return { kind: 'timeout' };
      }
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      this.logger.warn({ bot: bot.id, correlationId, reason }, 'bot unreachable');
      return { kind: 'unreachable', reason };
    } finally {
      clearTimeout(timer);
    }
  }
}

async function discard(response: Response): Promise<undefined> {
  await response.arrayBuffer();
  return undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = Buffer.from(await response.arrayBuffer());
  if (text.length === 0 || text.length > MAX_ANSWER_BYTES) return undefined;
  try {
    return JSON.parse(text.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
