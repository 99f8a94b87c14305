import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type BotConfig } from '@fieldops/platform-config';
import { ConnectorBotDelivery } from './connector-bot-delivery';
import { type DeliveryOutcome } from './bot-delivery';

const bot = { id: 'echo-bot' } as BotConfig;
const request = {
  bot,
  activity: { type: 'message', id: 'c|0000001', text: 'hi' },
  correlationId: 'corr-1',
};

/** A stand-in for connector-gateway's internal route that answers with `handler`. */
async function connector(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => handler(incoming, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function deliverThrough(
  handler: ((request: IncomingMessage, response: ServerResponse) => void) | 'closed',
  timeoutMs = 5_000,
): Promise<DeliveryOutcome> {
  const running = await connector(handler === 'closed' ? () => undefined : handler);
  if (handler === 'closed') await new Promise((resolve) => running.server.close(resolve));
  const delivery = new ConnectorBotDelivery({ connectorUrl: running.url, key: 'k', timeoutMs });
  try {
    return await delivery.deliver(request);
  } finally {
    delivery.close();
    running.server.closeAllConnections();
    await new Promise((resolve) => running.server.close(resolve));
  }
}

const json = (status: number, body: unknown) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

describe("ConnectorBotDelivery: the bot's outcome versus connector-gateway's own failure", () => {
  it("passes on connector-gateway's report of the bot (delivered, rejected, timeout, unreachable)", async () => {
    expect(await deliverThrough(json(200, { kind: 'delivered', status: 200 }))).toEqual({
      kind: 'delivered',
      status: 200,
    });
    expect(await deliverThrough(json(200, { kind: 'rejected', status: 500 }))).toEqual({
      kind: 'rejected',
      status: 500,
    });
    expect(await deliverThrough(json(200, { kind: 'timeout' }))).toEqual({ kind: 'timeout' });
    expect(await deliverThrough(json(200, { kind: 'unreachable', reason: 'ECONNREFUSED' }))).toEqual({
      kind: 'unreachable',
      reason: 'ECONNREFUSED',
    });
  });

  it('is unavailable (503 for the client, not 502 BotError) when connector-gateway answers 5xx', async () => {
    for (const status of [500, 502, 503, 504]) {
      const outcome = await deliverThrough(
        json(status, { error: { code: 'ServiceUnavailable', message: 'away' } }),
      );
      expect(outcome).toMatchObject({ kind: 'unavailable' });
      expect((outcome as { reason: string }).reason).toContain(`answered ${status}`);
    }
  });

  it("is unavailable when connector-gateway reports the bot's turn failed because the platform refused its reply", async () => {
    expect(
      await deliverThrough(
        json(200, { kind: 'unavailable', reason: 'the conversation log refused its reply' }),
      ),
    ).toEqual({ kind: 'unavailable', reason: 'connector-gateway: the conversation log refused its reply' });
  });

  it('is unavailable when connector-gateway refuses the connection or never answers', async () => {
    expect(await deliverThrough('closed')).toMatchObject({ kind: 'unavailable' });
    expect(await deliverThrough(() => undefined, 300)).toEqual({
      kind: 'unavailable',
      reason: 'connector-gateway did not answer in time',
    });
  });

  it('stays unreachable (502) for a refusal of the command itself (a wrong key, an unknown bot)', async () => {
    expect(await deliverThrough(json(401, { error: { code: 'Unauthorized' } }))).toMatchObject({
      kind: 'unreachable',
    });
    expect(await deliverThrough(json(404, { error: { code: 'BadArgument' } }))).toMatchObject({
      kind: 'unreachable',
    });
  });
});
