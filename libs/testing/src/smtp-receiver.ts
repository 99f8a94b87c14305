import { type AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as it arrived: the envelope and the parsed email. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  mail: ParsedMail;
}

/**
 * A real SMTP server (the `smtp-server` package) on a random loopback port, standing in for the operator's mail
 * server: it requires AUTH (PLAIN/LOGIN) with the given credentials and keeps every message, parsed by mailparser.
 */
export class SmtpReceiver {
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    readonly messages: ReceivedMail[],
  ) {}

  static async start(credentials = { user: 'fieldops', password: 'smtp secret' }): Promise<SmtpReceiver> {
    const messages: ReceivedMail[] = [];
    const server = new SMTPServer({
      // No certificate here: the test sends in plain text (INSPECTION_SMTP_TLS=none) on loopback.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === credentials.user && auth.password === credentials.password)
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            messages.push({
              from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              mail,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new SmtpReceiver(server, (server.server.address() as AddressInfo).port, messages);
  }

  /** The messages sent to an address. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((message) => message.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
