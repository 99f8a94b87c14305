import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** One proxied connection: the accepted socket and the one toward the target, with what a freeze held back. */
interface ProxiedConnection {
  client: Socket;
  upstream: Socket;
  held: Array<{ to: Socket; chunk: Buffer }>;
}

/**
 * A TCP proxy on loopback between a client and a server (a replica and its primary, a relay and Redis), that a fault
 * test can freeze (bytes stop flowing both ways while the connections stay open, as in a partition that drops packets:
 * nobody sees an error, replies never come), thaw (what was held flows on, in order) or cut (every connection reset,
 * what was held dropped).
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly connections = new Set<ProxiedConnection>();
  private frozen = false;

  constructor(
    readonly listenPort: number,
    readonly targetPort: number,
    readonly targetHost = '127.0.0.1',
  ) {}

  get url(): string {
    return `127.0.0.1:${this.listenPort}`;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
  }

  /** Bytes stop flowing (held in the proxy); connections, new ones included, stay open. */
  freeze(): void {
    this.frozen = true;
  }

  /** What was held flows on, in order, and so does everything after. */
  thaw(): void {
    this.frozen = false;
    for (const connection of this.connections) {
      for (const { to, chunk } of connection.held.splice(0)) if (!to.destroyed) to.write(chunk);
      if (connection.client.destroyed || connection.upstream.destroyed) {
        connection.client.end();
        connection.upstream.end();
        this.connections.delete(connection);
      }
    }
  }

  /** Resets every open connection and drops what was held; new connections are accepted (and frozen if frozen). */
  cut(): void {
    for (const connection of this.connections) {
      connection.held.length = 0;
      connection.client.destroy();
      connection.upstream.destroy();
    }
    this.connections.clear();
  }

  async stop(): Promise<void> {
    this.cut();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    const connection: ProxiedConnection = { client, upstream, held: [] };
    this.connections.add(connection);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (this.frozen || connection.held.length > 0) connection.held.push({ to, chunk });
      else if (!to.destroyed) to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const close = () => {
      // A peer that closed while frozen: its end is held back too, as the bytes before it were (thaw or cut ends it).
      if (this.frozen) return;
      this.connections.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', close);
    }
  }
}
