import type { ChildProcess } from 'node:child_process';
import { killRedisServer, listenSilently, startRedisServer } from '@fieldops/testing';
import { WebSocket } from 'ws';
import { auth, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

/** A redis-server of the test's own (ports 7200–7249), killed and started again under the running relay. */
const REDIS_PORT = 7200 + Math.floor(Math.random() * 50);

describe('relay-gateway with Redis away', () => {
  let redis: ChildProcess;
  let fixture: Fixture;
  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
    fixture = await startFixture({ REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}` });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    await killRedisServer(redis);
  }, 60_000);

  it("a send answers 503 ServiceUnavailable with Retry-After in Direct Line's format, then works again", async () => {
    const started = (await (
      await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
    ).json()) as { conversationId: string; token: string };
    const send = (text: string) =>
      fetch(`${fixture.base}/conversations/${started.conversationId}/activities`, {
        method: 'POST',
        headers: auth(started.token),
        body: JSON.stringify({ type: 'message', from: { id: 'u1' }, text }),
      });
    expect((await send('before')).status).toBe(200);

    await killRedisServer(redis);
    const away = await send('while away');
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(await away.json()).toEqual({
      error: { code: 'ServiceUnavailable', message: 'Service temporarily unavailable, try again later.' },
    });

    redis = await startRedisServer(REDIS_PORT);
    // The connection comes back by itself (reconnection backoff at most 2 s); the conversation's data went with
    // the killed server, so a new conversation is started.
    await waitFor(
      async () => {
        const response = await fetch(`${fixture.base}/conversations`, {
          method: 'POST',
          headers: auth(SECRET),
        });
        return response.status === 201 || response.status === 200 ? true : undefined;
      },
      'the relay to use Redis again',
      20_000,
    );
  }, 60_000);

  it('a send while Redis takes connections but never answers is a 503 at once (it used to wait for ever)', async () => {
    const started = (await (
      await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
    ).json()) as { conversationId: string; token: string };
    const send = (text: string) =>
      fetch(`${fixture.base}/conversations/${started.conversationId}/activities`, {
        method: 'POST',
        headers: auth(started.token),
        body: JSON.stringify({ type: 'message', from: { id: 'u1' }, text }),
      });
    expect((await send('before')).status).toBe(200);

    // Redis goes away and a silent listener takes its port: the relay's connections reconnect to it and wait for
    // an answer that never comes. Queued commands would wait with them (their reconnection attempts never fail).
    await killRedisServer(redis);
    const silent = await listenSilently(REDIS_PORT);
    try {
      await waitFor(() => (silent.connections() > 0 ? true : undefined), 'the relay to reconnect', 20_000);
      const away = await send('while Redis is silent');
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toBe('5');
    } finally {
      await silent.close();
    }

    redis = await startRedisServer(REDIS_PORT);
    await waitFor(
      async () => {
        const response = await fetch(`${fixture.base}/conversations`, {
          method: 'POST',
          headers: auth(SECRET),
        });
        return response.status === 201 || response.status === 200 ? true : undefined;
      },
      'the relay to use Redis again',
      20_000,
    );
  }, 60_000);
});

describe('issue 22, item 12: streams of a conversation that no longer exists', () => {
  /** A Redis of this suite's own, without persistence (ports 6410–6419). */
  const PORT = 6410 + Math.floor(Math.random() * 10);
  let redis: ChildProcess;
  let fixture: Fixture;
  beforeAll(async () => {
    redis = await startRedisServer(PORT);
    fixture = await startFixture({ REDIS_URL: `redis://127.0.0.1:${PORT}` });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    await killRedisServer(redis);
  }, 60_000);

  it('are closed with 4404 "conversation not found" when Redis comes back without them', async () => {
    const started = (await (
      await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
    ).json()) as { conversationId: string; token: string; streamUrl: string };
    const socket = new WebSocket(started.streamUrl);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    // Redis restarted without persistence: every conversation is gone.
    await killRedisServer(redis);
    redis = await startRedisServer(PORT);
    expect(await closed).toEqual({ code: 4404, reason: 'conversation not found' });
    // The conversation answers 404 from now on (DirectLineJS's reconnection ends there).
    const reconnect = await fetch(`${fixture.base}/conversations/${started.conversationId}`, {
      headers: auth(started.token),
    });
    expect(reconnect.status).toBe(404);
  }, 60_000);
});
