import { type Fixture, SECRET, startFixture, TRUSTED_ORIGIN } from './support/relay-harness';

/**
 * The send (`POST …/conversations/{id}/activities`) is answered before Express's router (ActivitySendRoute): what the
 * middleware in front of the router owns (security headers, request id, CORS, access log, metrics) stays on its
 * answers, and what it does not recognise goes on to the framework's route, which answers as before.
 */
describe('the send route before the router', () => {
  let fixture: Fixture;
  let conversationId: string;

  beforeAll(async () => {
    fixture = await startFixture();
    const started = await fetch(`${fixture.base}/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}` },
    });
    conversationId = ((await started.json()) as { conversationId: string }).conversationId;
  });
  afterAll(() => fixture.close());

  function send(
    path: string,
    body: string,
    headers: Record<string, string> = { 'Content-Type': 'application/json' },
  ): Promise<Response> {
    return fetch(`${fixture.relay.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}`, ...headers },
      body,
    });
  }

  const message = JSON.stringify({ type: 'message', from: { id: 'user-1' }, text: 'hello' });

  it('answers with the headers of every route, Server-Timing, and no ETag', async () => {
    const response = await send(`/v3/directline/conversations/${conversationId}/activities`, message, {
      'Content-Type': 'application/json; charset=utf-8',
      Origin: TRUSTED_ORIGIN,
      'X-Request-Id': 'send-route-test-1',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: expect.stringMatching(new RegExp(`^${conversationId}\\|`)) });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('send-route-test-1');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe(TRUSTED_ORIGIN);
    expect(response.headers.get('server-timing')).toMatch(/^relay;dur=\d+\.\d{3}$/);
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('serves both prefixes, any case and a trailing slash, as the router matched them', async () => {
    for (const path of [
      `/v3/relay/conversations/${conversationId}/activities`,
      `/V3/DirectLine/conversations/${conversationId}/activities/`,
    ]) {
      const response = await send(path, message);
      expect(response.status).toBe(200);
    }
  });

  it('labels its requests with the route pattern on /metrics', async () => {
    const text = await (await fetch(`${fixture.relay.url}/metrics`)).text();
    expect(text).toMatch(
      /http_requests_total\{[^}]*route="\/v3\/directline\/conversations\/:conversationId\/activities"[^}]*status="200"/,
    );
    expect(text).toMatch(/route="\/v3\/relay\/conversations\/:conversationId\/activities"/);
  });

  it('answers refusals through the exception filter, in the wire format', async () => {
    const unknown = await send('/v3/directline/conversations/no-such-conversation/activities', message);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });

    const anonymous = await fetch(`${fixture.base}/conversations/${conversationId}/activities`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: message,
    });
    expect(anonymous.status).toBe(401);

    const invalid = await send(`/v3/directline/conversations/${conversationId}/activities`, '{"type":');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe('BadSyntax');

    const untyped = await send(
      `/v3/directline/conversations/${conversationId}/activities`,
      JSON.stringify({ from: { id: 'user-1' } }),
    );
    expect(untyped.status).toBe(400);
    expect(((await untyped.json()) as { error: { code: string } }).error.code).toBe('MissingProperty');
  });

  it('leaves other bodies to the framework route, which answers as before', async () => {
    const text = await send(`/v3/directline/conversations/${conversationId}/activities`, message, {
      'Content-Type': 'text/plain',
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: { code: string } }).error.code).toBe('BadSyntax');
  });
});
