import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What the receiver answered. */
  answered: number;
}

/** A webhook receiver (the outside party): a real HTTP server that records what arrives and answers `answer()`. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The status of the next answer (200 unless a test says otherwise). */
  answer: (attempt: number) => number = () => 200;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(host = '127.0.0.1'): Promise<WebhookReceiver> {
    const self: { receiver?: WebhookReceiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const receiver = self.receiver;
        const status = receiver?.answer(receiver.received.length + 1) ?? 200;
        receiver?.received.push({
          id: String(request.headers['webhook-id']),
          timestamp: String(request.headers['webhook-timestamp']),
          signature: String(request.headers['webhook-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
          answered: status,
        });
        response.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {});
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    self.receiver = new WebhookReceiver(server, `http://${host}:${port}/hook`);
    return self.receiver;
  }

  /** The bodies received with a 2xx answer, parsed. */
  accepted(): Array<{ id: string; type: string; timestamp: string; data: Record<string, unknown> }> {
    return this.received
      .filter((delivery) => delivery.answered < 300)
      .map(
        (delivery) =>
          JSON.parse(delivery.body) as {
            id: string;
            type: string;
            timestamp: string;
            data: Record<string, unknown>;
          },
      );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it returns a value other than undefined (the test's own timeout bounds the wait). */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  everyMs = 100,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
