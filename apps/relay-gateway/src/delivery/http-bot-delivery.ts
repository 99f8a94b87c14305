import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type DeliveryOutcome, type DeliveryRequest, type BotDelivery } from './bot-delivery';

export interface HttpBotDeliveryOptions {
  /** Deadline for the bot's HTTP answer. */
  timeoutMs: number;
}

/** Delivers by POSTing the activity as JSON to the bot's messaging endpoint over keep-alive connections. */
export class HttpBotDelivery implements BotDelivery {
  private readonly httpAgent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

  constructor(private readonly options: HttpBotDeliveryOptions) {}

  deliver({ bot, activity, correlationId }: DeliveryRequest): Promise<DeliveryOutcome> {
    const url = new URL(bot.messagingEndpoint);
    const body = Buffer.from(JSON.stringify(activity));
    const secure = url.protocol === 'https:';
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: DeliveryOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': body.length,
            'X-Correlation-Id': correlationId,
          },
        },
        (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          response.on('end', () =>
            settle(
              status >= 200 && status < 300 ? { kind: 'delivered', status } : { kind: 'rejected', status },
            ),
          );
          response.on('error', (error) => settle({ kind: 'unreachable', reason: error.message }));
        },
      );
      const timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        request.destroy();
      }, this.options.timeoutMs);
      request.on('error', (error) => settle({ kind: 'unreachable', reason: error.message }));
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
