import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { type AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { DRAIN_CLOSE_CODE } from '../src/stream/stream.service';
import { ConnectionStatus, RecordingClient } from '@fieldops/testing/directline-client';
import {
  auth,
  botSays,
  type Fixture,
  type RelayGateway,
  SECRET,
  startFixture,
  startRelay,
  waitFor,
} from './support/relay-harness';

/**
 * The load balancer in front of the relays (a stand-in for a Kubernetes Service): forwards each new TCP connection
 * to the current target port; connections already open stay where they are.
 */
class SwitchingProxy {
  target = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor() {
    this.server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: this.target });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Close codes the client's sockets saw. */
const closeCodes: number[] = [];
class RecordingWebSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    this.on('close', (code: number) => closeCodes.push(code));
  }
}

/** The `relay_open_streams` gauge on an instance's /metrics. */
async function openStreams(relay: RelayGateway): Promise<number> {
  const text = await (await fetch(`${relay.url}/metrics`)).text();
  const line = /^relay_open_streams(\{[^}]*\})? (\d+)$/m.exec(text);
  if (!line) throw new Error('no relay_open_streams on /metrics');
  return Number(line[2]);
}

describe('graceful drain with a stock DirectLineJS client', () => {
  let fixture: Fixture;
  let other: RelayGateway;
  const proxy = new SwitchingProxy();
  let client: RecordingClient | undefined;

  beforeAll(async () => {
    fixture = await startFixture();
    other = await startRelay(fixture.configPath);
    // The bot answers through the instance that stays.
    fixture.bot.replyThrough = other;
    proxy.target = fixture.relay.port;
  });
  afterAll(async () => {
    client?.end();
    await proxy.close();
    await other.close();
    await fixture.close();
  });

  it('closes its streams with 1012; the client resumes on the other instance from its watermark, nothing lost', async () => {
    const domain = `http://127.0.0.1:${await proxy.listen()}/v3/directline`;
    const started = await fetch(`${domain}/conversations`, { method: 'POST', headers: auth(SECRET) });
    const { conversationId, token } = (await started.json()) as { conversationId: string; token: string };
    client = new RecordingClient({
      domain,
      token,
      conversationId,
      webSocket: true,
      // DirectLineJS waits 3 s + random() × 12 s before reconnecting: the shortest wait.
      random: () => 0,
      WebSocket: RecordingWebSocket,
    } as ConstructorParameters<typeof RecordingClient>[0]);
    await client.post({ type: 'message', from: { id: 'u1' }, text: 'one' });
    await waitFor(() => client!.texts().includes('echo: one'), 'the first reply');

    // The autoscaler's metric: one stream on A, none on B.
    expect(await openStreams(fixture.relay)).toBe(1);
    expect(await openStreams(other)).toBe(0);

    // Instance A drains (what SIGTERM runs); new connections now reach instance B.
    proxy.target = other.port;
    const ready = await fetch(`${fixture.relay.url}/readyz`);
    expect(ready.status).toBe(200);
    await fixture.relay.close();
    expect(closeCodes).toEqual([DRAIN_CLOSE_CODE]);

    // Said while the client is between instances: delivered after it resumes, from its watermark.
    await botSays(other, conversationId, 'while draining');
    await waitFor(
      () => client!.texts().includes('while draining'),
      'the activity sent during the drain',
      30_000,
    );
    await client.post({ type: 'message', from: { id: 'u1' }, text: 'two' });
    await waitFor(() => client!.texts().includes('echo: two'), 'the reply on instance B');

    expect(await openStreams(other)).toBe(1);
    expect(client.texts()).toEqual(['one', 'echo: one', 'while draining', 'two', 'echo: two']);
    expect(client.ids()).toEqual([...new Set(client.ids())]);
    // It reconnected: never gave up (FailedToConnect) nor ended.
    expect(client.statuses).not.toContain(ConnectionStatus.FailedToConnect);
    expect(client.statuses).not.toContain(ConnectionStatus.Ended);
    expect(client.statuses.at(-1)).toBe(ConnectionStatus.Online);
  }, 60_000);
});
