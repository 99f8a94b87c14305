import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { type Request } from 'express';
import { Webhook } from 'standardwebhooks';
import { ErrorEnvelopeException, OwnBody } from '@fieldops/platform';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { parseChatNotification } from './chat-notification';
import { ProactiveMessages } from './proactive-messages';

/** The largest hand-over read: a notification's words and event data are a few kilobytes. */
const MAX_BODY_BYTES = 64 * 1024;

function readBody(request: Request): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    request.on('error', () => resolve(undefined));
  });
}

/**
 * `POST /api/notifications`: inspection-api hands a notification to send in the chat (docs/protocols/
 * notifications.md, "Chat"), signed the Standard Webhooks way with INSPECTION_BOT_NOTIFICATIONS_SECRET (verified
 * with the `standardwebhooks` library, timestamps within 5 minutes). 200 once sent (or already sent: a repeated
 * id is not sent twice); 401 a bad signature; 400 not a notification; 502 the connector refused it; 404 when no
 * secret is configured.
 */
@Controller('api')
export class NotificationsController {
  private readonly verifier: Webhook | undefined;

  constructor(
    environment: InspectionBotEnvironment,
    private readonly proactive: ProactiveMessages,
  ) {
    const secret = environment.INSPECTION_BOT_NOTIFICATIONS_SECRET;
    this.verifier = secret === undefined ? undefined : new Webhook(secret);
  }

  @Post('notifications')
  @OwnBody()
  @HttpCode(200)
  async receive(@Req() request: Request): Promise<{ id: string; status: 'sent' | 'repeat' }> {
    if (!this.verifier)
      throw new ErrorEnvelopeException(404, 'NotFound', 'Notifications in the chat are not configured.');
    const body = await readBody(request);
    if (!body) throw new ErrorEnvelopeException(413, 'BadArgument', 'The notification is too large.');
    let parsed: unknown;
    try {
      parsed = this.verifier.verify(body, {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      });
    } catch {
      throw new ErrorEnvelopeException(401, 'Unauthorized', 'The notification is not validly signed.');
    }
    const notification = parseChatNotification(parsed);
    if (!notification || request.headers['webhook-id'] !== `notification_${notification.id}`)
      throw new ErrorEnvelopeException(400, 'BadArgument', 'The body is not a notification.');
    try {
      return { id: notification.id, status: await this.proactive.send(notification) };
    } catch (error) {
      throw new ErrorEnvelopeException(
        502,
        'ServiceError',
        `The chat could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
