import { HttpFront } from '@fieldops/platform';
import { ParityHarness, type ParityRequest } from '@fieldops/testing';
import { ENHANCED_SECRET, type Fixture, SECRET, startFixture, TRUSTED_ORIGIN } from './support/relay-harness';

/**
 * The send (`POST …/conversations/{id}/activities`) has a fast path in front of the framework. For the same app,
 * the fast path and the framework alone give the same bytes (status, headers in order, body) for successes and
 * refusals; each refusal also has the status the guard gives, so a guard taken off the controller fails here.
 */
describe('the send: fast path and framework give the same bytes', () => {
  let fixture: Fixture;
  let parity: ParityHarness;
  let conversationId: string;
  let token: string;
  let otherToken: string;
  let enhancedToken: string;

  const json = { 'Content-Type': 'application/json' };
  const message = JSON.stringify({ type: 'message', from: { id: 'user-1' }, text: 'hello "ü"\u2028' });

  async function startConversation(credential: string): Promise<{ conversationId: string; token: string }> {
    const started = await fetch(`${fixture.base}/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credential}` },
    });
    expect(started.status).toBe(201);
    return (await started.json()) as { conversationId: string; token: string };
  }

  beforeAll(async () => {
    fixture = await startFixture();
    parity = await ParityHarness.start(fixture.relay.url, fixture.relay.app, {
      maskHeaders: ['Server-Timing'],
      // Each send appends: the echo's id carries the next sequence number.
      body: (body) => body.replace(/\|\d{7}/g, '|<seq>'),
    });
    ({ conversationId, token } = await startConversation(SECRET));
    otherToken = (await startConversation(SECRET)).token;
    const generated = await fetch(`${fixture.base}/tokens/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ENHANCED_SECRET}`, ...json },
      body: JSON.stringify({ user: { id: 'dl_user-1' }, trustedOrigins: [TRUSTED_ORIGIN] }),
    });
    enhancedToken = ((await generated.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await parity?.close();
    await fixture?.close();
  });

  const send = (path: string, headers: Record<string, string>, body = message): ParityRequest => ({
    method: 'POST',
    path,
    headers: { ...json, ...headers },
    body,
  });
  const path = (prefix = 'v3/directline', id = (): string => conversationId) =>
    `/${prefix}/conversations/${id()}/activities`;

  const cases: [string, () => ParityRequest, number][] = [
    ['a message with the secret', () => send(path(), { Authorization: `Bearer ${SECRET}` }), 200],
    ['a message with the token', () => send(path(), { Authorization: `Bearer ${token}` }), 200],
    [
      'a message from a trusted origin (CORS)',
      () => send(path(), { Authorization: `Bearer ${SECRET}`, Origin: TRUSTED_ORIGIN }),
      200,
    ],
    ['the relay prefix', () => send(path('v3/relay'), { Authorization: `Bearer ${SECRET}` }), 200],
    [
      'any case and a trailing slash',
      () => send(`${path('V3/DirectLine')}/`, { Authorization: `Bearer ${SECRET}` }),
      200,
    ],
    [
      'JSON with a charset',
      () =>
        send(path(), {
          Authorization: `Bearer ${SECRET}`,
          'Content-Type': 'application/json; charset=utf-8',
        }),
      200,
    ],
    ['no credential', () => send(path(), {}), 401],
    ['an unknown credential', () => send(path(), { Authorization: 'Bearer not-a-credential' }), 403],
    ['a token of another conversation', () => send(path(), { Authorization: `Bearer ${otherToken}` }), 403],
    [
      'an enhanced token from an untrusted origin',
      () => send(path(), { Authorization: `Bearer ${enhancedToken}`, Origin: 'https://elsewhere.example' }),
      403,
    ],
    [
      'an unknown conversation',
      () =>
        send(
          path('v3/directline', () => 'no-such-conversation'),
          { Authorization: `Bearer ${SECRET}` },
        ),
      404,
    ],
    [
      'an encoded conversation id',
      () =>
        send(
          path('v3/directline', () => 'a%2Fb%20c'),
          { Authorization: `Bearer ${SECRET}` },
        ),
      404,
    ],
    ['malformed JSON', () => send(path(), { Authorization: `Bearer ${SECRET}` }, '{"type":'), 400],
    [
      'an activity without a type',
      () => send(path(), { Authorization: `Bearer ${SECRET}` }, JSON.stringify({ from: { id: 'u' } })),
      400,
    ],
    [
      'a body above the limit',
      () =>
        send(
          path(),
          { Authorization: `Bearer ${SECRET}` },
          JSON.stringify({ type: 'message', from: { id: 'u' }, text: 'x'.repeat(2_000_000) }),
        ),
      413,
    ],
    [
      'another media type',
      () => send(path(), { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'text/plain' }),
      400,
    ],
    ['one segment too many', () => send(`${path()}/extra`, { Authorization: `Bearer ${SECRET}` }), 404],
    ['an unknown prefix', () => send(path('v3/elsewhere'), { Authorization: `Bearer ${SECRET}` }), 404],
  ];

  it('has the send of both prefixes as its fast routes (each case below runs through one)', () => {
    expect(
      fixture.relay.app.get(HttpFront).fastRoutes.map(({ method, route }) => `${method} ${route}`),
    ).toEqual([
      'POST /v3/directline/conversations/:conversationId/activities',
      'POST /v3/relay/conversations/:conversationId/activities',
    ]);
  });

  it.each(cases)('%s', async (_name, request, status) => {
    const { fast, framework } = await parity.both(request());
    expect(fast).toEqual(framework);
    expect(fast.status).toBe(status);
  });
});
