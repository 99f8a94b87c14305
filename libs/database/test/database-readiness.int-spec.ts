import { createServer, connect, type Server, type Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { buildPostgresDataSourceOptions } from '../src/data-source-options';
import { checkDatabaseReady } from '../src/database-readiness';
import { adminDatabaseUrl } from './support/test-database';

/** A TCP proxy in front of the test server that can stop forwarding (black hole) or disappear. */
class FlakyProxy {
  private readonly sockets = new Set<Socket>();
  private blackHole = false;
  private readonly server: Server;

  private constructor(private readonly upstream: URL) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(upstreamUrl: string): Promise<FlakyProxy> {
    const proxy = new FlakyProxy(new URL(upstreamUrl));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The upstream URL, routed through the proxy. */
  get url(): string {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('proxy is not listening');
    const routed = new URL(this.upstream);
    routed.hostname = '127.0.0.1';
    routed.port = String(address.port);
    return routed.toString();
  }

  /** Keeps accepting connections but never answers; existing connections are cut. */
  swallowEverything(): void {
    this.blackHole = true;
    this.dropConnections();
  }

  /** Stops listening and cuts every connection: the port now refuses connections. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.dropConnections();
    await closed;
  }

  private dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('error', () => undefined);
    if (this.blackHole) return;
    const upstream = connect(Number(this.upstream.port || 5432), this.upstream.hostname);
    this.sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  }
}

function dataSourceFor(url: string): DataSource {
  return new DataSource(
    buildPostgresDataSourceOptions({ url, entities: [], migrations: [], connectionTimeoutMillis: 3_000 }),
  );
}

describe('checkDatabaseReady', () => {
  const cleanups: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function initialized(url: string): Promise<DataSource> {
    const dataSource = await dataSourceFor(url).initialize();
    cleanups.push(async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    });
    return dataSource;
  }

  async function proxied(): Promise<{ proxy: FlakyProxy; dataSource: DataSource }> {
    const proxy = await FlakyProxy.start(adminDatabaseUrl());
    cleanups.push(() => proxy.close().catch(() => undefined));
    return { proxy, dataSource: await initialized(proxy.url) };
  }

  it('resolves for a reachable database', async () => {
    const dataSource = await initialized(adminDatabaseUrl());
    await expect(checkDatabaseReady(dataSource)).resolves.toBeUndefined();
  });

  it('rejects with a clear message for a DataSource that never connected (port 1)', async () => {
    const dataSource = dataSourceFor('postgres://postgres:postgres@127.0.0.1:1/postgres');
    await expect(dataSource.initialize()).rejects.toThrow(/ECONNREFUSED/);
    await expect(checkDatabaseReady(dataSource)).rejects.toThrow(
      'Database is not ready: the DataSource is not initialized',
    );
  });

  it('rejects with the cause when the database has become unreachable', async () => {
    const { proxy, dataSource } = await proxied();
    await expect(checkDatabaseReady(dataSource)).resolves.toBeUndefined();

    await proxy.close();
    const startedAt = Date.now();
    await expect(checkDatabaseReady(dataSource, 1_000)).rejects.toThrow(
      /^Database is not ready: .*(ECONNREFUSED|Connection terminated)/,
    );
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('rejects within the timeout when the database does not answer', async () => {
    const { proxy, dataSource } = await proxied();
    proxy.swallowEverything();

    const startedAt = Date.now();
    const outcome = await checkDatabaseReady(dataSource, 300).then(
      () => undefined,
      (error: unknown) => error,
    );
    const elapsedMs = Date.now() - startedAt;
    // Either the dropped pooled connection fails fast, or the new one hangs until our timeout.
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/^Database is not ready: /);
    expect(elapsedMs).toBeLessThan(1_000);
  });
});
