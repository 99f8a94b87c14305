import { HttpFront } from '@fieldops/platform';
import { ParityHarness, type ParityRequest } from '@fieldops/testing';
import { type BotConversation, INTERNAL_KEY } from './support/platform';
import { startBotConversation } from './support/platform';

/**
 * SendToConversation, ReplyToActivity and the relay's delivery have a fast path in front of the framework. For the
 * same app, the fast path and the framework alone give the same bytes (status, headers in order, body) for
 * successes and refusals; each refusal also has the status the guards give, so a guard taken off a controller
 * fails here.
 */
describe('connector-gateway: fast path and framework give the same bytes', () => {
  let fixture: BotConversation;
  let parity: ParityHarness;

  beforeAll(async () => {
    fixture = await startBotConversation('parity');
    parity = await ParityHarness.start(fixture.platform.connector.url, fixture.platform.connector.app, {
      // A fresh operation id per answer, as the real Bot Connector's.
      maskHeaders: ['X-Correlating-OperationId'],
      // Each send appends: the new activity's id carries the next sequence number.
      body: (body) => body.replace(/\|\d{7}/g, '|<seq>'),
    });
  });
  afterAll(async () => {
    await parity?.close();
    await fixture?.close();
  });

  const message = JSON.stringify({ type: 'message', text: 'hello "ü"\u2028' });
  const post = (path: string, headers: Record<string, string>, body = message): ParityRequest => ({
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  const bot = (): Record<string, string> => ({ Authorization: `Bearer ${fixture.token}` });
  const activities = (): string => `/v3/conversations/${fixture.conversationId}/activities`;
  const reply = (): string => `${activities()}/${encodeURIComponent(`${fixture.conversationId}|0000000`)}`;

  const sends: [string, () => ParityRequest, number][] = [
    ['Send', () => post(activities(), bot()), 200],
    ['Reply', () => post(reply(), bot()), 200],
    ['Send, the conversation id in another case', () => post(`${activities().toUpperCase()}/`, bot()), 404],
    [
      'Send, the path in another case',
      () => post(`/V3/Conversations/${fixture.conversationId}/activities/`, bot()),
      200,
    ],
    ['Reply with a trailing slash', () => post(`${reply()}/`, bot()), 200],
    [
      'Send with a charset',
      () => post(activities(), { ...bot(), 'Content-Type': 'application/json; charset=utf-8' }),
      200,
    ],
    ['Send without a token', () => post(activities(), {}), 401],
    ['Send with a bad token', () => post(activities(), { Authorization: 'Bearer not-a-token' }), 401],
    ['Reply with a bad token', () => post(reply(), { Authorization: 'Bearer not-a-token' }), 401],
    ['Send to an unknown conversation', () => post('/v3/conversations/nope/activities', bot()), 404],
    ['Send, malformed JSON', () => post(activities(), bot(), '{"type":'), 400],
    ['Send, not an activity', () => post(activities(), bot(), '[1]'), 400],
    [
      'Send, an activity above 256 KB',
      () => post(activities(), bot(), JSON.stringify({ type: 'message', text: 'x'.repeat(300_000) })),
      413,
    ],
    ['Send, another media type', () => post(activities(), { ...bot(), 'Content-Type': 'text/plain' }), 400],
    ['history is its own route', () => post(`${activities()}/history`, bot(), '{"activities":[]}'), 200],
    ['one segment too many', () => post(`${reply()}/extra`, bot()), 404],
  ];

  const command = (botId: string): string =>
    JSON.stringify({
      botId,
      activity: {
        type: 'message',
        id: 'c1|0000000',
        channelId: 'directline',
        serviceUrl: 'http://connector.example/',
        conversation: { id: 'c1' },
        from: { id: 'u1' },
      },
      correlationId: 'parity-1',
    });
  const key = { Authorization: `Bearer ${INTERNAL_KEY}` };
  const deliveries: [string, () => ParityRequest, number][] = [
    ['a delivery', () => post('/internal/v1/deliveries', key, command('parity-bot')), 200],
    ['a delivery, any case', () => post('/Internal/V1/Deliveries/', key, command('parity-bot')), 200],
    ['a delivery without the key', () => post('/internal/v1/deliveries', {}, command('parity-bot')), 401],
    [
      'a delivery with a wrong key',
      () => post('/internal/v1/deliveries', { Authorization: 'Bearer wrong' }, command('parity-bot')),
      401,
    ],
    [
      'a delivery with a bot token instead of the key',
      () => post('/internal/v1/deliveries', bot(), command('parity-bot')),
      401,
    ],
    ['a delivery to an unknown bot', () => post('/internal/v1/deliveries', key, command('nobody')), 404],
    ['a malformed command', () => post('/internal/v1/deliveries', key, '{"botId":1}'), 400],
    ['a delivery, malformed JSON', () => post('/internal/v1/deliveries', key, '{'), 400],
  ];

  it('has Send, Reply and the delivery as its fast routes (the cases below run through each)', () => {
    const routes = fixture.platform.connector.app.get(HttpFront).fastRoutes;
    expect(routes.map(({ method, route }) => `${method} ${route}`).sort()).toEqual([
      'POST /internal/v1/deliveries',
      'POST /v3/conversations/:conversationId/activities',
      'POST /v3/conversations/:conversationId/activities/:activityId',
    ]);
  });

  it.each([...sends, ...deliveries])('%s', async (_name, request, status) => {
    const { fast, framework } = await parity.both(request());
    expect(fast).toEqual(framework);
    expect(fast.status).toBe(status);
  });
});
