import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type BotDelivery, type DeliveryOutcome, type DeliveryRequest } from './bot-delivery';
import { HttpBotDelivery } from './http-bot-delivery';

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
 * token, POSTs to the messaging endpoint with a deadline and reports `{kind, status?}` back.
 */
export class ConnectorBotDelivery implements BotDelivery {
  private readonly endpoint: string;

  constructor(private readonly options: ConnectorBotDeliveryOptions) {
    this.endpoint = `${options.connectorUrl.replace(/\/+$/, '')}/internal/v1/deliveries`;
  }

  async deliver({ bot, activity, correlationId }: DeliveryRequest): Promise<DeliveryOutcome> {
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.options.key}`,
          'Content-Type': 'application/json; charset=utf-8',
          'X-Correlation-Id': correlationId,
        },
        body: JSON.stringify({ botId: bot.id, activity, correlationId }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'timeout' };
      const reason =
        error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      return { kind: 'unreachable', reason: `connector-gateway: ${reason}` };
    }
    const text = await response.text();
    if (response.status !== 200)
      return {
        kind: 'unreachable',
        reason: `connector-gateway answered ${response.status}: ${text.slice(0, 200)}`,
      };
    const report = JSON.parse(text) as { kind?: unknown; status?: unknown; reason?: unknown; body?: unknown };
    if (report.kind === 'delivered' || report.kind === 'rejected') {
      const status = Number(report.status);
      return report.body === undefined
        ? { kind: report.kind, status }
        : { kind: report.kind, status, body: report.body };
    }
    if (report.kind === 'timeout') return { kind: 'timeout' };
    return {
      kind: 'unreachable',
      reason: typeof report.reason === 'string' ? report.reason : 'connector-gateway: unknown outcome',
    };
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
