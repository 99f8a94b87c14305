import { JsonPoster, parseJsonBody } from '@fieldops/platform';
import { type DeliveryOutcome, type DeliveryRequest, type BotDelivery } from './bot-delivery';

export interface HttpBotDeliveryOptions {
  /** Deadline for the bot's HTTP answer. */
  timeoutMs: number;
}

/** Largest invoke answer read back from a bot; a longer one is dropped (the client gets the status only). */
const MAX_INVOKE_ANSWER_BYTES = 262_144;

/** Delivers by POSTing the activity as JSON to the bot's messaging endpoint over keep-alive connections. */
export class HttpBotDelivery implements BotDelivery {
  private readonly poster = new JsonPoster();

  constructor(private readonly options: HttpBotDeliveryOptions) {}

  async deliver({ bot, activity, correlationId }: DeliveryRequest): Promise<DeliveryOutcome> {
    const outcome = await this.poster.post(
      bot.messagingEndpoint,
      { 'Content-Type': 'application/json; charset=utf-8', 'X-Correlation-Id': correlationId },
      JSON.stringify(activity),
      {
        timeoutMs: this.options.timeoutMs,
        readBodyUpTo: activity.type === 'invoke' ? MAX_INVOKE_ANSWER_BYTES : undefined,
      },
    );
    if (outcome.kind === 'timeout') return { kind: 'timeout' };
    if (outcome.kind === 'failed') return { kind: 'unreachable', reason: outcome.reason };
    const { status } = outcome;
    const kind = status >= 200 && status < 300 ? 'delivered' : 'rejected';
    const parsed = parseJsonBody(outcome.body);
    return parsed === undefined ? { kind, status } : { kind, status, body: parsed };
  }

  close(): void {
    this.poster.close();
  }
}
