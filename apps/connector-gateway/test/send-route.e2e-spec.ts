import { type BotConversation, type RunningPlatform, startBotConversation } from './support/platform';

/**
 * Send and Reply are answered before Express's router (BotSendRoute, platform's preRoutedJsonPost): the app-wide
 * middleware stays on their answers, and what they do not take goes on to the framework's routes, as before.
 */
describe('connector-gateway: the send routes before the router', () => {
  let fixture: BotConversation;
  let platform: RunningPlatform;
  let token: string;
  let conversationId: string;

  beforeAll(async () => {
    fixture = await startBotConversation('route');
    ({ platform, token, conversationId } = fixture);
  });
  afterAll(() => fixture.close());

  function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${platform.connector.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body,
    });
  }

  const message = JSON.stringify({ type: 'message', text: 'hello' });

  it('answers Send and Reply with the headers of every route and no ETag', async () => {
    const sent = await post(`/v3/conversations/${conversationId}/activities`, message, {
      'X-Request-Id': 'connector-send-route-1',
    });
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: string };
    expect(id).toMatch(new RegExp(`^${conversationId}\\|\\d{7}$`));
    expect(sent.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(sent.headers.get('x-correlating-operationid')).toBeTruthy();
    expect(sent.headers.get('x-request-id')).toBe('connector-send-route-1');
    expect(sent.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sent.headers.get('etag')).toBeNull();

    const replied = await post(
      `/V3/Conversations/${conversationId}/activities/${encodeURIComponent(id)}/`,
      message,
    );
    expect(replied.status).toBe(200);
    expect(((await replied.json()) as { id: string }).id).toMatch(new RegExp(`^${conversationId}\\|\\d{7}$`));
  });

  it('labels them with their route patterns on /metrics', async () => {
    const text = await (await fetch(`${platform.connector.url}/metrics`)).text();
    expect(text).toMatch(/route="\/v3\/conversations\/:conversationId\/activities"[^}]*status="200"/);
    expect(text).toMatch(
      /route="\/v3\/conversations\/:conversationId\/activities\/:activityId"[^}]*status="200"/,
    );
  });

  it('refuses through the exception filter, in the wire format', async () => {
    const unauthenticated = await post(`/v3/conversations/${conversationId}/activities`, message, {
      Authorization: 'Bearer not-a-token',
    });
    expect(unauthenticated.status).toBe(401);
    expect(((await unauthenticated.json()) as { error: { code: string } }).error.code).toBe('Unauthorized');
    const unknown = await post('/v3/conversations/no-such-conversation/activities', message);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('BadArgument');
  });

  it('leaves history and other bodies to the framework routes', async () => {
    const history = await post(
      `/v3/conversations/${conversationId}/activities/history`,
      JSON.stringify({ activities: [{ type: 'message', text: 'old', from: { id: 'user-1' } }] }),
    );
    expect(history.status).toBe(200);
    expect(((await history.json()) as { id: string }).id).toBe('Processed 1 of 1 activities successfully.');
    const text = await post(`/v3/conversations/${conversationId}/activities`, message, {
      'Content-Type': 'text/plain',
    });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
  });
});
