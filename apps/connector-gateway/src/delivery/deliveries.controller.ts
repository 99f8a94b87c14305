import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { type Activity, badArgument } from '@fieldops/contracts';
import { FastPath, Public } from '@fieldops/platform';
import { BotRegistry } from '../bots/bot-registry';
import { BotDeliverer, type DeliveryReport } from './bot-deliverer.service';
import { InternalKeyGuard } from './internal-key.guard';

/** The body of `POST /internal/v1/deliveries`. */
export interface DeliveryCommand {
  /** The bot's platform id (`bots[].id` of the platform configuration). */
  botId: string;
  activity: Activity;
  correlationId?: string;
}

function isCommand(body: unknown): body is DeliveryCommand {
  if (typeof body !== 'object' || body === null) return false;
  const { botId, activity, correlationId } = body as Record<string, unknown>;
  return (
    typeof botId === 'string' &&
    typeof activity === 'object' &&
    activity !== null &&
    !Array.isArray(activity) &&
    (correlationId === undefined || typeof correlationId === 'string')
  );
}

/**
 * Internal: relay-gateway hands an activity over for delivery to a bot. Always 200 with the outcome once the
 * delivery was attempted (`{kind: delivered|rejected, status, body?}`, `{kind: timeout}`, `{kind: unreachable}`);
 * 400 for a malformed command, 404 `BadArgument` for an unknown bot, 401 without the internal key.
 */
@Public()
@UseGuards(InternalKeyGuard)
@Controller('internal/v1/deliveries')
export class DeliveriesController {
  constructor(
    private readonly registry: BotRegistry,
    private readonly deliverer: BotDeliverer,
  ) {}

  /** Every message when the relay runs in a process of its own: also answered before Express (`@FastPath`). */
  @Post()
  @HttpCode(200)
  @FastPath()
  async deliver(@Body() body: unknown): Promise<DeliveryReport> {
    if (!isCommand(body)) throw badArgument('Expected {botId, activity, correlationId?}');
    const bot = this.registry.findById(body.botId);
    if (!bot) throw badArgument(`Unknown bot ${body.botId}`, 404);
    return this.deliverer.deliver(bot, body.activity, body.correlationId);
  }
}
