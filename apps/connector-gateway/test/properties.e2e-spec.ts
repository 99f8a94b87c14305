import fc from 'fast-check';
import { type BotConversation, type RunningPlatform, startBotConversation } from './support/platform';

/** Values that stress activity handling: wrong types, huge numbers, NULs, lone surrogates, nesting. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', '\ud800', 'x'.repeat(300)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .integer({ min: 1, max: 100 })
    .map((depth) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown),
);

const activityFields = fc.constantFrom(
  'type',
  'text',
  'from',
  'recipient',
  'conversation',
  'attachments',
  'attachmentLayout',
  'channelData',
  'value',
  'name',
  'entities',
  'replyToId',
  'suggestedActions',
  'members',
  'bot',
  'isGroup',
  'activity',
  'originalBase64',
  'thumbnailBase64',
);

const bodies = fc.oneof(
  fc
    .dictionary(activityFields, nasty, { maxKeys: 6 })
    .map((fields) => ({ type: 'message', text: 'hi', ...fields })),
  nasty,
);

/** Raw bodies the JSON parser must refuse cleanly: deep nesting, invalid UTF-8, truncated and random bytes. */
const rawBodies = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `[{"Text":${'['.repeat(depth)}`),
  fc
    .uint8Array({ minLength: 1, maxLength: 8 })
    .map((bytes) =>
      Buffer.concat([Buffer.from('{"type":"message","text":"'), Buffer.from(bytes), Buffer.from('"}')]),
    ),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom(
    '{"type":"message","text":"\\u0000"}',
    '[{"Text":"\\u0000"}]',
    'grant_type=client_credentials&a[b][c]=1',
    '[',
  ),
);

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'application/json; charset=latin-9',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=koi8-r',
  'text/plain',
  'multipart/form-data; boundary=xyz',
  'image/png',
);

const segments = fc.oneof(
  fc.constantFrom('', '..', '%00', '%ff', '%F0%9F%98%80', 'a'.repeat(300), '%2e%2e', '~', '%'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

async function expectNo5xx(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  // Every error carries its wire format's `error` (Bot Connector, Translator and OAuth bodies alike).
  if (response.status >= 400 && text !== '') expect(JSON.parse(text)).toHaveProperty('error');
}

/** Fuzzing connector-gateway's routes: whatever arrives, the answer is a 2xx–4xx in the route's wire format. */
describe('connector-gateway: no input produces a 5xx', () => {
  let fixture: BotConversation;
  let platform: RunningPlatform;
  let token: string;
  let conversationId: string;

  beforeAll(async () => {
    fixture = await startBotConversation('fuzz');
    ({ platform, token, conversationId } = fixture);
  });
  afterAll(() => fixture.close());

  it('random JSON bodies on the Bot Connector routes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ['POST', '/v3/conversations'],
          ['POST', '/v3/conversations/{id}/activities'],
          ['POST', '/v3/conversations/{id}/activities/history'],
          ['POST', '/v3/conversations/{id}/activities/{x}'],
          ['PUT', '/v3/conversations/{id}/activities/{x}'],
          ['POST', '/v3/conversations/{id}/attachments'],
        ),
        bodies,
        fc.string({ maxLength: 10 }).map((value) => encodeURIComponent(value) || 'x'),
        async ([method, template], body, segment) => {
          const path = template.replaceAll('{id}', conversationId).replaceAll('{x}', segment);
          const response = await fetch(`${platform.connector.url}${path}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          await expectNo5xx(response);
        },
      ),
      {
        numRuns: 100,
        // Inputs a random run once found answered with a 5xx; kept so every run tries them.
        examples: [
          [['POST', '/v3/conversations/{id}/activities'], { type: 'message', text: 'hi', entities: '' }, 'x'],
          [['POST', '/v3/conversations/{id}/activities/{x}'], { type: 'typing', entities: [null] }, 'x'],
        ],
      },
    );
  });

  it('raw bodies (deep nesting, invalid bytes) and odd content types, with and without credentials', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/v3/conversations',
          `/v3/conversations/${conversationId}/activities`,
          `/v3/conversations/${conversationId}/attachments`,
          '/botframework.com/oauth2/v2.0/token',
          '/translate?api-version=3.0&to=de',
          '/sts/v1.0/issueToken',
        ),
        contentTypes,
        rawBodies,
        fc.constantFrom('token', 'none', 'garbage'),
        async (path, contentType, body, credential) => {
          const headers: Record<string, string> = { 'Content-Type': contentType };
          if (credential === 'token') headers.Authorization = `Bearer ${token}`;
          if (credential === 'garbage') headers.Authorization = 'Bearer x.y.z';
          const response = await fetch(`${platform.connector.url}${path}`, { method: 'POST', headers, body });
          await expectNo5xx(response);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('odd paths and query strings on the main routes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.constantFrom(
          '/v3/conversations/{id}/members',
          '/v3/conversations/{id}/activities/{x}/members',
          '/v3/conversations/{x}/pagedmembers',
          '/v3/attachments/{x}',
          '/v3/attachments/{x}/views/{x}',
          '/v3/conversations',
          '/{x}/oauth2/v2.0/token',
          '/{x}/{x}',
        ),
        segments,
        fc.dictionary(
          fc.constantFrom('pageSize', 'continuationToken', 'api-version', 'to', 'from', 'x'),
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom('-1', '1e400', '99999999999999999999', 'NaN'),
          ),
          { maxKeys: 3 },
        ),
        async (method, template, segment, query) => {
          const path = template
            .replaceAll('{id}', conversationId)
            .replaceAll('{x}', segment === '' ? 'x' : segment);
          const search = new URLSearchParams(query).toString();
          const response = await fetch(`${platform.connector.url}${path}?${search}`, {
            method,
            headers: { Authorization: `Bearer ${token}` },
          });
          await expectNo5xx(response);
        },
      ),
      { numRuns: 100 },
    );
  });
});
