import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type DeliveryOutcome, type DeliveryRequest, type BotDelivery } from './bot-delivery';

export interface HttpBotDeliveryOptions {
  /** Deadline for the bot's HTTP answer. */
  timeoutMs: number;
}

/** Largest invoke answer read back from a bot; a longer one is dropped (the client gets the status only). */
const MAX_INVOKE_ANSWER_BYTES = 262_144;

/** Collects a response body up to a limit and parses it as JSON (undefined when empty, too long or not JSON). */
class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
  }

  json(): unknown {
    if (this.size === 0 || this.size > this.limit) return undefined;
    try {
      return JSON.parse(Buffer.concat(this.chunks).toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }
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
          const status = response.statusCode ?? 0;
          const kind = status >= 200 && status < 300 ? 'delivered' : 'rejected';
          const answer = activity.type === 'invoke' ? new BoundedBody(MAX_INVOKE_ANSWER_BYTES) : undefined;
          if (answer) response.on('data', (chunk: Buffer) => answer.add(chunk));
          else response.resume();
          response.on('end', () => {
            const parsed = answer?.json();
            settle(parsed === undefined ? { kind, status } : { kind, status, body: parsed });
          });
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
