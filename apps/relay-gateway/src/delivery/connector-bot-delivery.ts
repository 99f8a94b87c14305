import { JsonPoster, parseJsonBody } from '@fieldops/platform';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type BotDelivery, type DeliveryOutcome, type DeliveryRequest } from './bot-delivery';
import { HttpBotDelivery } from './http-bot-delivery';

/** Largest report read back from connector-gateway (an invoke answer is at most 256 KiB, plus the envelope). */
const MAX_REPORT_BYTES = 1_048_576;

export interface ConnectorBotDeliveryOptions {
  /** connector-gateway's internal base URL, e.g. `http://connector-gateway:8020`. */
  connectorUrl: string;
  /** The shared internal key (connector-gateway's CONNECTOR_INTERNAL_KEY). */
  key: string;
  /** Deadline of the whole call; the bot's own deadline is connector-gateway's CONNECTOR_DELIVERY_TIMEOUT_MS. */
  timeoutMs: number;
}

/**
 * Delivers through connector-gateway (`POST {connector}/internal/v1/deliveries`), which mints the bot's channel
 * token, POSTs to the messaging endpoint with a deadline and reports `{kind, status?}` back. The bot's outcome is
 * connector-gateway's report; connector-gateway itself away or failing, or reporting the bot's turn failed because it
 * refused the bot's reply (`{kind: 'unavailable'}`), is `unavailable` (503).
 */
export class ConnectorBotDelivery implements BotDelivery {
  private readonly endpoint: URL;
  private readonly authorization: string;
  private readonly poster = new JsonPoster();

  constructor(private readonly options: ConnectorBotDeliveryOptions) {
    this.endpoint = new URL(`${options.connectorUrl.replace(/\/+$/, '')}/internal/v1/deliveries`);
    this.authorization = `Bearer ${options.key}`;
  }

  async deliver({ bot, activity, correlationId }: DeliveryRequest): Promise<DeliveryOutcome> {
    const outcome = await this.poster.post(
      this.endpoint,
      {
        Authorization: this.authorization,
        'Content-Type': 'application/json; charset=utf-8',
        'X-Correlation-Id': correlationId,
      },
      JSON.stringify({ botId: bot.id, activity, correlationId }),
      { timeoutMs: this.options.timeoutMs, readBodyUpTo: MAX_REPORT_BYTES },
    );
    // connector-gateway is part of the platform: when it is away (refused, reset, silent past its own deadline for the
    // bot, or answering 5xx itself) the send is a 503 with Retry-After, not the bot's 502/504.
    if (outcome.kind === 'timeout')
      return { kind: 'unavailable', reason: 'connector-gateway did not answer in time' };
    if (outcome.kind === 'failed')
      return { kind: 'unavailable', reason: `connector-gateway: ${outcome.reason}` };
    const text = outcome.body?.toString('utf8') ?? '';
    if (outcome.status >= 500)
      return {
        kind: 'unavailable',
        reason: `connector-gateway answered ${outcome.status}: ${text.slice(0, 200)}`,
      };
    if (outcome.status !== 200)
      return {
        kind: 'unreachable',
        reason: `connector-gateway answered ${outcome.status}: ${text.slice(0, 200)}`,
      };
    const report = (parseJsonBody(outcome.body) ?? {}) as {
      kind?: unknown;
      status?: unknown;
      reason?: unknown;
      body?: unknown;
    };
    if (report.kind === 'delivered' || report.kind === 'rejected') {
      const status = Number(report.status);
      return report.body === undefined
        ? { kind: report.kind, status }
        : { kind: report.kind, status, body: report.body };
    }
    if (report.kind === 'timeout') return { kind: 'timeout' };
    // The bot's turn failed because the platform refused its reply (the conversation log away): try again, not 502.
    if (report.kind === 'unavailable')
      return {
        kind: 'unavailable',
        reason: `connector-gateway: ${typeof report.reason === 'string' ? report.reason : 'unavailable'}`,
      };
    return {
      kind: 'unreachable',
      reason: typeof report.reason === 'string' ? report.reason : 'connector-gateway: unknown outcome',
    };
  }

  close(): void {
    this.poster.close();
  }
}

/** RELAY_BOT_DELIVERY: through connector-gateway (`connector`), or straight to the bot, unsigned (`direct`). */
export function selectBotDelivery(environment: RelayGatewayEnvironment): BotDelivery {
  if (environment.botDeliveryMode() === 'connector') {
    return new ConnectorBotDelivery({
      connectorUrl: environment.RELAY_CONNECTOR_URL!,
      key: environment.RELAY_CONNECTOR_KEY!,
      // A margin over connector-gateway's own deadline for the bot, which reports the timeout itself.
      timeoutMs: environment.BOT_DELIVERY_TIMEOUT_MS + 5000,
    });
  }
  return new HttpBotDelivery({ timeoutMs: environment.BOT_DELIVERY_TIMEOUT_MS });
}
