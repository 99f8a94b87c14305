import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
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
export class BotDeliverer implements OnApplicationShutdown {
  private readonly httpAgent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly minter: BotTokenMinter,
    private readonly environment: ConnectorGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deliver(bot: BotRegistration, activity: Activity, correlationId?: string): Promise<DeliveryReport> {
    const body = Buffer.from(JSON.stringify(activity));
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': body.length,
    };
    if (!bot.anonymous) {
      const serviceUrl = typeof activity.serviceUrl === 'string' ? activity.serviceUrl : '';
      headers.Authorization = `Bearer ${this.minter.mint(bot.appId, serviceUrl).token}`;
    }
    const conversationId = activity.conversation?.id;
    if (typeof conversationId === 'string') headers['x-ms-conversation-id'] = conversationId;
    if (correlationId) headers['X-Correlation-Id'] = correlationId;
    const answer = await this.post(bot.messagingEndpoint, headers, body, activity.type === 'invoke');
    if (answer.kind === 'timeout') {
      this.logger.info({ bot: bot.id, correlationId }, 'bot timed out');
      return { kind: 'timeout' };
    }
    if (answer.kind === 'failed') {
      this.logger.warn({ bot: bot.id, correlationId, reason: answer.reason }, 'bot unreachable');
      return { kind: 'unreachable', reason: answer.reason };
    }
    const { status } = answer;
    const delivered = status === 200 || status === 201 || status === 202;
    if (!delivered) this.logger.info({ bot: bot.id, status, correlationId }, 'bot refused an activity');
    return answer.body === undefined
      ? { kind: delivered ? 'delivered' : 'rejected', status }
      : { kind: delivered ? 'delivered' : 'rejected', status, body: answer.body };
  }

  /** Closes the idle keep-alive connections to bots (at shutdown). */
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * One POST over the keep-alive agents (headers and body in one write; node:http rather than fetch, whose
   * per-request cost was a tenth of a message's CPU time in bench/relay/compare.js). Redirects are not followed.
   */
  private post(
    endpoint: string,
    headers: Record<string, string | number>,
    body: Buffer,
    readAnswer: boolean,
  ): Promise<BotAnswer> {
    return new Promise<BotAnswer>((resolve) => {
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        resolve({ kind: 'failed', reason: `invalid messaging endpoint ${endpoint}` });
        return;
      }
      const secure = url.protocol === 'https:';
      let settled = false;
      const settle = (answer: BotAnswer): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        { method: 'POST', agent: secure ? this.httpsAgent : this.httpAgent, headers },
        (response) => {
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          if (readAnswer)
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
            });
          else response.resume();
          response.on('end', () =>
            settle({ kind: 'answered', status, body: readAnswer ? parseAnswer(chunks, size) : undefined }),
          );
          response.on('error', (error) => settle({ kind: 'failed', reason: error.message }));
        },
      );
      const timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        request.destroy();
      }, this.environment.CONNECTOR_DELIVERY_TIMEOUT_MS);
      request.on('error', (error) => settle({ kind: 'failed', reason: error.message }));
      request.end(body);
    });
  }
}

type BotAnswer =
  | { kind: 'answered'; status: number; body: unknown }
  | { kind: 'timeout' }
  | { kind: 'failed'; reason: string };

function parseAnswer(chunks: Buffer[], size: number): unknown {
  if (size === 0 || size > MAX_ANSWER_BYTES) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
