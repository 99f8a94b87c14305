import type { ChildProcess } from 'node:child_process';
import { killRedisServer, listenSilently, startRedisServer, waitFor } from '@fieldops/testing';
import { type GatewayFixture, requestToken, SCOPE, SECRET_BOT, startGatewayFixture } from './support/gateway';

/** A redis-server of the test's own (ports 7250–7299), killed and started again under the running gateway. */
const REDIS_PORT = 7250 + Math.floor(Math.random() * 50);
const UNAVAILABLE = {
  error: { code: 'ServiceUnavailable', message: 'Service temporarily unavailable, try again later.' },
};

/**
 * connector-gateway with Redis away (issue 22, item 11): every bot call that needs the store answers 503 with
 * Retry-After in the Bot Connector format — never 500, and never 401 for a valid token — and the gateway serves again
 * by itself once Redis is back.
 */
describe('connector-gateway with Redis away', () => {
  let redis: ChildProcess;
  let fixture: GatewayFixture;
  let token = '';

  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
    fixture = await startGatewayFixture({ REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}` });
    const issued = await requestToken(fixture.gateway, {
      grant_type: 'client_credentials',
      client_id: SECRET_BOT.appId,
      client_secret: SECRET_BOT.password,
      scope: SCOPE,
    });
    token = String(issued.body.access_token);
  }, 60_000);
  afterAll(async () => {
    await fixture?.gateway.close();
    await killRedisServer(redis);
  }, 60_000);

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fixture.gateway.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
  };
  const createConversation = () =>
    call('POST', '/v3/conversations', {
      members: [{ id: 'user-1', name: 'One' }],
      activity: { type: 'message', text: 'hello' },
    });
  const unavailable = { status: 503, retryAfter: '5', body: UNAVAILABLE };

  /** Every call a bot makes that needs Redis, on a conversation created while Redis was up. */
  const botCalls = (conversationId: string) => [
    () => createConversation(),
    () =>
      call('POST', `/v3/conversations/${conversationId}/activities`, { type: 'message', text: 'a reply' }),
    () =>
      call(
        'POST',
        `/v3/conversations/${conversationId}/activities/${encodeURIComponent(`${conversationId}|0`)}`,
        {
          type: 'message',
          text: 'a reply to',
        },
      ),
    () => call('GET', `/v3/conversations/${conversationId}/members`),
    () =>
      call('POST', `/v3/conversations/${conversationId}/attachments`, { type: 'text/plain', name: 'a.txt' }),
  ];

  it('answers 503 ServiceUnavailable with Retry-After (Bot Connector format), never 500 or 401; then recovers', async () => {
    const created = await createConversation();
    expect(created.status).toBe(201);
    const conversationId = (created.body as { id: string }).id;

    await killRedisServer(redis);
    for (const botCall of botCalls(conversationId)) expect(await botCall()).toEqual(unavailable);
    expect((await fetch(`${fixture.gateway.url}/readyz`)).status).toBe(503);

    redis = await startRedisServer(REDIS_PORT);
    // The connections come back by themselves (reconnection backoff at most 2 s); the killed server had no
    // persistence, so a new conversation is started.
    await waitFor(
      async () => (await createConversation()).status === 201,
      'the gateway to use Redis again',
      20_000,
    );
    expect((await fetch(`${fixture.gateway.url}/readyz`)).status).toBe(200);
  }, 60_000);

  it('answers 503 at once while Redis takes connections but never answers', async () => {
    const created = await createConversation();
    expect(created.status).toBe(201);
    const conversationId = (created.body as { id: string }).id;

    // Redis goes away and a silent listener takes its port: the gateway reconnects to it and no answer ever comes.
    await killRedisServer(redis);
    const silent = await listenSilently(REDIS_PORT);
    try {
      await waitFor(() => silent.connections() > 0, 'the gateway to reconnect', 20_000, 200);
      for (const botCall of botCalls(conversationId)) expect(await botCall()).toEqual(unavailable);
    } finally {
      await silent.close();
    }

    redis = await startRedisServer(REDIS_PORT);
    await waitFor(
      async () => (await createConversation()).status === 201,
      'the gateway to use Redis again',
      20_000,
    );
  }, 60_000);
});
