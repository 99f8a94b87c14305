import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** One proxied connection: the accepted socket, the one toward the target, and what a freeze held back. */
export interface ProxiedConnection {
  readonly client: Socket;
  readonly upstream: Socket;
  frozen: boolean;
  readonly held: Array<{ to: Socket; chunk: Buffer }>;
}

/**
 * A TCP proxy on loopback between a client and a server (a replica and its primary, a relay and the connector), that
 * a fault test can freeze (bytes stop flowing both ways while the connections stay open, as in a partition that drops
 * packets: nobody sees an error, replies never come), thaw (what was held flows on, in order) or cut (connections
 * reset, what was held dropped). A freeze can be limited to some connections (e.g. a primary's replication link,
 * found by the port the proxy's upstream socket has on the primary).
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly connections = new Set<ProxiedConnection>();
  /** New connections start frozen. */
  private frozen = false;

  constructor(
    readonly listenPort: number,
    readonly targetPort: number,
    readonly targetHost = '127.0.0.1',
  ) {}

  get url(): string {
    return `127.0.0.1:${this.listenPort}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
  }

  /** Bytes stop flowing on every connection, new ones included; connections stay open. */
  freeze(): void {
    this.frozen = true;
    for (const connection of this.connections) connection.frozen = true;
  }

  /** Freezes only the open connections whose upstream socket has one of these local ports. Returns how many. */
  freezeUpstreamPorts(ports: number[]): number {
    let count = 0;
    for (const connection of this.connections) {
      if (ports.includes(connection.upstream.localPort ?? -1)) {
        connection.frozen = true;
        count += 1;
      }
    }
    return count;
  }

  /** What was held flows on, in order, and so does everything after. */
  thaw(): void {
    this.frozen = false;
    for (const connection of [...this.connections]) {
      connection.frozen = false;
      for (const { to, chunk } of connection.held.splice(0)) if (!to.destroyed) to.write(chunk);
      if (connection.client.destroyed || connection.upstream.destroyed) this.end(connection);
    }
  }

  /** Resets the frozen connections and drops what they held (the bytes never arrive); the others are untouched. */
  cutFrozen(): void {
    for (const connection of [...this.connections]) if (connection.frozen) this.end(connection);
  }

  /** Resets every open connection and drops what was held. */
  cut(): void {
    for (const connection of [...this.connections]) this.end(connection);
  }

  async stop(): Promise<void> {
    this.frozen = false;
    this.cut();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private end(connection: ProxiedConnection): void {
    connection.held.length = 0;
    connection.client.destroy();
    connection.upstream.destroy();
    this.connections.delete(connection);
  }

  private accept(client: Socket): void {
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    const connection: ProxiedConnection = { client, upstream, frozen: this.frozen, held: [] };
    this.connections.add(connection);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (connection.frozen || connection.held.length > 0) connection.held.push({ to, chunk });
      else if (!to.destroyed) to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const close = () => {
      // A peer that closed while frozen: its end is held back too, as the bytes before it were (thaw or cut ends it).
      if (connection.frozen) return;
      this.end(connection);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', close);
    }
  }
}
