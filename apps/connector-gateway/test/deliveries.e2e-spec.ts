import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { startConnectorGateway } from '../src';
import { decodeJwt, type RunningGateway, testEnvironment } from './support/gateway';
import { rsaKeyPair } from './support/keys';
import { INTERNAL_KEY } from './support/platform';

interface Received {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** `POST /internal/v1/deliveries` against a plain HTTP bot that answers as told. */
describe('connector-gateway delivery to bots', () => {
  const received: Received[] = [];
  let answer: (body: Record<string, unknown>) => {
    status: number;
    body?: unknown;
    delayMs?: number;
  } = () => ({
    status: 200,
  });
  let bot: Server;
  let gateway: RunningGateway;

  beforeAll(async () => {
    bot = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        received.push({ headers: request.headers, body });
        const { status, body: reply, delayMs } = answer(body);
        setTimeout(() => {
          if (response.destroyed) return;
          response.writeHead(status, { 'Content-Type': 'application/json' });
          response.end(reply === undefined ? undefined : JSON.stringify(reply));
        }, delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/api/messages`;
    gateway = await startConnectorGateway({
      environment: testEnvironment(rsaKeyPair(), {
        CONNECTOR_INTERNAL_KEY: INTERNAL_KEY,
        CONNECTOR_DELIVERY_TIMEOUT_MS: '300',
      }),
      bots: [
        {
          id: 'signed',
          appId: 'signed-app',
          displayName: 'S',
          messagingEndpoint: endpoint,
          appPassword: 'password-1',
        },
        { id: 'anon', appId: 'anon-app', displayName: 'A', messagingEndpoint: endpoint, anonymous: true },
        {
          id: 'gone',
          appId: 'gone-app',
          displayName: 'G',
          messagingEndpoint: 'http://127.0.0.1:1/x',
          anonymous: true,
        },
      ],
    });
  });
  afterAll(async () => {
    await gateway.close();
    bot.closeAllConnections();
    await new Promise<void>((resolve) => bot.close(() => resolve()));
  });

  const activity = (type = 'message') => ({
    type,
    id: 'c1|0000000',
    channelId: 'directline',
    serviceUrl: 'http://connector.example/',
    conversation: { id: 'c1' },
    from: { id: 'u1' },
    recipient: { id: 'signed' },
  });

  const deliver = async (body: unknown, key: string | null = INTERNAL_KEY) => {
    const response = await fetch(`${gateway.url}/internal/v1/deliveries`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key !== null && { Authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('POSTs with a channel token for the bot and the activity’s serviceUrl, and reports delivered', async () => {
    answer = () => ({ status: 202 });
    const result = await deliver({ botId: 'signed', activity: activity(), correlationId: 'corr-1' });
    expect(result).toEqual({ status: 200, body: { kind: 'delivered', status: 202 } });
    const last = received.at(-1)!;
    expect(last.body).toEqual(activity());
    expect(last.headers['x-ms-conversation-id']).toBe('c1');
    expect(last.headers['x-correlation-id']).toBe('corr-1');
    const token = String(last.headers.authorization).replace(/^Bearer /, '');
    expect(decodeJwt(token).payload).toMatchObject({
      aud: 'signed-app',
      serviceurl: 'http://connector.example/',
      iss: 'https://api.botframework.com',
    });
  });

  it('sends no Authorization to an anonymous bot', async () => {
    answer = () => ({ status: 200 });
    expect((await deliver({ botId: 'anon', activity: activity() })).body).toEqual({
      kind: 'delivered',
      status: 200,
    });
    expect(received.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('reports the bot’s other statuses, timeouts, unreachable bots, and invoke bodies', async () => {
    answer = () => ({ status: 500 });
    expect((await deliver({ botId: 'signed', activity: activity() })).body).toEqual({
      kind: 'rejected',
      status: 500,
    });
    answer = () => ({ status: 200, delayMs: 1000 });
    expect((await deliver({ botId: 'signed', activity: activity() })).body).toEqual({ kind: 'timeout' });
    expect((await deliver({ botId: 'gone', activity: activity() })).body).toMatchObject({
      kind: 'unreachable',
    });
    answer = () => ({ status: 409, body: { answer: 42 } });
    expect((await deliver({ botId: 'signed', activity: activity('invoke') })).body).toEqual({
      kind: 'rejected',
      status: 409,
      body: { answer: 42 },
    });
  });

  it('needs the internal key (401), a known bot (404) and a well-formed command (400)', async () => {
    expect((await deliver({ botId: 'signed', activity: activity() }, null)).status).toBe(401);
    expect((await deliver({ botId: 'signed', activity: activity() }, 'x'.repeat(40))).status).toBe(401);
    expect(await deliver({ botId: 'nobody', activity: activity() })).toMatchObject({
      status: 404,
      body: { error: { code: 'BadArgument' } },
    });
    expect((await deliver({ botId: 'signed' })).status).toBe(400);
  });
});
