import { BotDeliverer, BotRegistry } from '@fieldops/connector-gateway';
import { type RunningService } from '@fieldops/platform';
import { type BotDelivery, type DeliveryOutcome, type DeliveryRequest } from '@fieldops/relay-gateway';

/**
 * Relay → connector delivery when both run in this process: the relay hands the activity straight to the connector's
 * BotDeliverer (which mints the bot's channel token and POSTs to its endpoint) instead of an HTTP request to
 * `/internal/v1/deliveries` on the same machine: one HTTP exchange, a JSON encode and decode and the internal-key
 * check fewer per message, with the same outcomes.
 */
export class InProcessConnectorDelivery implements BotDelivery {
  private readonly registry: BotRegistry;
  private readonly deliverer: BotDeliverer;

  constructor(connector: RunningService) {
    this.registry = connector.app.get(BotRegistry);
    this.deliverer = connector.app.get(BotDeliverer);
  }

  async deliver({ bot, activity, correlationId }: DeliveryRequest): Promise<DeliveryOutcome> {
    const registration = this.registry.findById(bot.id);
    if (!registration) return { kind: 'unreachable', reason: `connector-gateway: unknown bot ${bot.id}` };
    return this.deliverer.deliver(registration, activity, correlationId);
  }
}
