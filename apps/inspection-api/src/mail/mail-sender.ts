import { type Readable } from 'node:stream';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { createTransport, type Transporter } from 'nodemailer';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';

/** One email: to one or more addresses, with a plain-text part always and an HTML part when given. */
export interface OutgoingMail {
  to: string | readonly string[];
  subject: string;
  /** The plain-text part (every email has one). */
  text: string;
  html?: string;
  /** A file each (a report's PDF): content as bytes or a stream, read while sending. */
  attachments?: ReadonlyArray<{ filename: string; content: Buffer | Readable; contentType?: string }>;
  /** Extra headers (`List-Unsubscribe`, …). */
  headers?: Record<string, string>;
}

/** Sending was asked while email is off (INSPECTION_SMTP_HOST unset). */
export class MailDisabledError extends Error {
  constructor() {
    super('email is off: INSPECTION_SMTP_HOST is not set');
  }
}

/**
 * The one way inspection-api sends email: nodemailer to the operator's SMTP server (INSPECTION_SMTP_*). Off when no
 * host is configured: `enabled` is false and `send` throws MailDisabledError. Notifications, the daily digest and
 * emailed reports all call `send`.
 */
@Injectable()
export class MailSender implements OnApplicationShutdown {
  private readonly transport: Transporter | undefined;
  private readonly from: string | undefined;

  constructor(
    environment: InspectionApiEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const host = environment.INSPECTION_SMTP_HOST;
    if (host === undefined) return;
    const tls = environment.INSPECTION_SMTP_TLS;
    const timeout = environment.INSPECTION_SMTP_TIMEOUT_MS;
    this.from = environment.INSPECTION_SMTP_FROM;
    this.transport = createTransport({
      host,
      port: environment.INSPECTION_SMTP_PORT,
      secure: tls === 'implicit',
      requireTLS: tls === 'starttls',
      ignoreTLS: tls === 'none',
      auth:
        environment.INSPECTION_SMTP_USER === undefined
          ? undefined
          : { user: environment.INSPECTION_SMTP_USER, pass: environment.INSPECTION_SMTP_PASSWORD },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // A few connections reused across a burst of alerts rather than one per message.
      pool: true,
      maxConnections: 3,
    });
  }

  /** Whether email is configured. */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  /** Sends one email; resolves with the SMTP server's message id, rejects with its refusal or a network error. */
  async send(mail: OutgoingMail): Promise<{ messageId: string }> {
    if (!this.transport) throw new MailDisabledError();
    const info = (await this.transport.sendMail({
      from: this.from,
      to: typeof mail.to === 'string' ? mail.to : [...mail.to],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      attachments: mail.attachments?.map((attachment) => ({ ...attachment })),
    })) as { messageId: string };
    this.logger.debug({ messageId: info.messageId }, 'email sent');
    return { messageId: info.messageId };
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
