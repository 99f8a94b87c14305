import { type Activity } from '@fieldops/contracts';
import { type BotConfig } from '@fieldops/platform-config';

/**
 * How a delivery to the bot ended; the send route turns it into 200, 502 or 504 (the bot's doing, as Direct Line
 * answers them), or 503 with Retry-After when the platform's own delivery path (connector-gateway) is away.
 * `body` is the bot's JSON answer, read for invoke activities only (their response goes back to the client).
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; status: number; body?: unknown }
  | { kind: 'rejected'; status: number; body?: unknown }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'unavailable'; reason: string };

export interface DeliveryRequest {
  bot: BotConfig;
  activity: Activity;
  correlationId: string;
}

/**
 * The port through which the relay hands client activities to a bot. Today: a direct HTTP POST to the bot's
 * messaging endpoint; later: an internal call to connector-gateway, which signs and delivers.
 */
export interface BotDelivery {
  deliver(request: DeliveryRequest): Promise<DeliveryOutcome>;
}

export const BOT_DELIVERY = Symbol('BOT_DELIVERY');
