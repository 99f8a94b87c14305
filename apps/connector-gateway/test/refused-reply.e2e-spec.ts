import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CloudAdapter, ConfigurationBotFrameworkAuthentication, type TurnContext } from 'botbuilder';
import express from 'express';
import { killRedisServer, startRedisServer } from '@fieldops/testing';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

/** A port the system hands out as free (for the test's own redis-server). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A Direct Line send whose bot reply the platform refuses (docs/operate/failover.md, "A bot's reply refused"): the
 * connector's conversation log waits for a replica (`STORE_REPLICA_ACKS=1`) that this Redis does not have, as after a
 * primary's failover before the old primary rejoins; every reply the stock botbuilder bot sends answers 503, its
 * client retries, then its turn fails (500). The Direct Line client is told to try again — 503 `ServiceUnavailable`
 * with Retry-After — and not that the bot is broken (502 `BotError`), which stays the answer for the bot's own
 * failures.
 */
describe("a bot's reply refused 503 by connector-gateway during a Direct Line send", () => {
  const endpoint = new LateBoundServer();
  const bot: PlatformBot = {
    id: 'refused-bot',
    appId: 'refused-bot-app-id',
    secret: 'refused-bot-directline-secret-01',
    credentials: ['anonymous: true'],
    endpoint,
  };
  const replies: Array<{ status: number | undefined }> = [];
  let redis: ChildProcess;
  let platform: RunningPlatform;

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedisServer(port);
    await endpoint.start();
    // The relay acknowledges the client's activity at once (no replica to wait for); the connector's log waits for
    // one replica, which never answers: every bot reply is refused 503 after 100 ms.
    platform = await startPlatform(
      [bot],
      {
        STORE_REPLICA_ACKS: '1',
        STORE_REPLICA_ACK_TIMEOUT_MS: '100',
        CONNECTOR_DELIVERY_TIMEOUT_MS: '60000',
      },
      `redis://127.0.0.1:${port}`,
    );
    const adapter = new CloudAdapter(
      new ConfigurationBotFrameworkAuthentication({ MicrosoftAppId: '', MicrosoftAppPassword: '' }),
    );
    const logic = async (context: TurnContext): Promise<void> => {
      if (context.activity.type !== 'message') return;
      if (context.activity.text === 'fail') throw new Error('the bot failed on purpose');
      try {
        await context.sendActivity(`you said ${context.activity.text}`);
        replies.push({ status: 200 });
      } catch (error) {
        replies.push({ status: (error as { statusCode?: number }).statusCode });
        throw error;
      }
    };
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.post('/api/messages', (request, response) => void adapter.process(request, response, logic));
    endpoint.handler = app;
  }, 60_000);

  afterAll(async () => {
    await platform?.close();
    await endpoint.stop();
    await killRedisServer(redis);
  }, 60_000);

  async function send(text: string) {
    const started = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bot.secret}` },
    });
    const conversation = (await started.json()) as { conversationId: string; token: string };
    const response = await fetch(
      `${platform.relay.url}/v3/directline/conversations/${conversation.conversationId}/activities`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${conversation.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'message', from: { id: 'user-1' }, text }),
      },
    );
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it('the client gets 503 ServiceUnavailable with Retry-After, not 502 BotError', async () => {
    // CloudAdapter prints the failed turn's error to the console before answering 500.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await send('hello');
      // The bot's reply was refused with 503 (botbuilder's client retried it, then gave up): the turn failed.
      expect(replies).toEqual([{ status: 503 }]);
      expect(answer).toEqual({
        status: 503,
        retryAfter: expect.stringMatching(/^\d+$/),
        body: {
          error: { code: 'ServiceUnavailable', message: 'Service temporarily unavailable, try again later.' },
        },
      });
    } finally {
      quiet.mockRestore();
    }
  }, 60_000);

  it('a turn the bot fails by itself, with no reply refused, stays 502 BotError', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await send('fail');
      expect(answer).toMatchObject({
        status: 502,
        body: { error: { code: 'BotError' }, httpStatusCode: 500 },
      });
    } finally {
      quiet.mockRestore();
    }
  }, 60_000);
});
