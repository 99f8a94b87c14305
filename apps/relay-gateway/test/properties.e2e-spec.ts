import fc from 'fast-check';
import { BOT_FRAMEWORK_ERROR_CODES } from '@fieldops/contracts';
import { type Fixture, SECRET, startFixture } from './support/relay-harness';

/** Values that stress activity handling: wrong types, huge numbers, NULs, lone surrogates, deep nesting. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    '',
    ' ',
    '\u0000',
    '\ud800',
    'x'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .integer({ min: 1, max: 100 })
    .map((depth) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown),
);

const activityFields = fc.constantFrom(
  'type',
  'text',
  'from',
  'id',
  'conversation',
  'attachments',
  'channelData',
  'value',
  'name',
  'locale',
  'entities',
  'replyToId',
  'timestamp',
  'recipient',
  'suggestedActions',
  'speak',
);

/** An activity-like object: a message with some fields replaced by nasty values, or anything at all. */
const activities = fc.oneof(
  fc
    .dictionary(activityFields, nasty, { maxKeys: 6 })
    .map((fields) => ({ type: 'message', from: { id: 'u1' }, text: 'hi', ...fields })),
  nasty,
);

/** Raw bodies the JSON parser must refuse cleanly: deep nesting, invalid UTF-8, truncated and random bytes. */
const rawBodies = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'['.repeat(depth)}`),
  fc
    .uint8Array({ minLength: 1, maxLength: 8 })
    .map((bytes) =>
      Buffer.concat([Buffer.from('{"type":"message","text":"'), Buffer.from(bytes), Buffer.from('"}')]),
    ),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('{"type":"message","text":"\\u0000"}', '{"a":1e999999}', '[', '"', '{"__proto__":{"x":1}}'),
);

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin-9',
  'application/vnd.microsoft.activity',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'image/png',
);

const segments = fc.oneof(
  fc.constantFrom('', '..', '%00', '%ff', '%F0%9F%98%80', 'a'.repeat(300), '%2e%2e', '~', '%'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

interface Conversation {
  conversationId: string;
  token: string;
}

async function expectWireFormat(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400 && text !== '') {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    expect(typeof body.error?.message).toBe('string');
    // Direct Line 3.0 codes everywhere (1.1 paths under /api have their own enum).
    if (!new URL(response.url).pathname.startsWith('/api/'))
      expect(BOT_FRAMEWORK_ERROR_CODES).toContain(body.error?.code);
  }
}

/** Fuzzing relay-gateway's routes: whatever arrives, the answer is a 2xx–4xx in the Direct Line wire format. */
describe('relay-gateway: no input produces a 5xx', () => {
  let fixture: Fixture;
  let conversation: Conversation;

  beforeAll(async () => {
    fixture = await startFixture({
      RELAY_RATE_LIMIT_PER_TOKEN: '1000000',
      RELAY_RATE_LIMIT_PER_CONVERSATION: '1000000',
    });
    const response = await fetch(`${fixture.base}/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET}` },
    });
    conversation = (await response.json()) as Conversation;
  });
  afterAll(() => fixture.close());

  it('random activity shapes posted with a valid token', async () => {
    await fc.assert(
      fc.asyncProperty(activities, async (activity) => {
        const response = await fetch(
          `${fixture.base}/conversations/${conversation.conversationId}/activities`,
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${conversation.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(activity),
          },
        );
        await expectWireFormat(response);
      }),
      { numRuns: 100 },
    );
  });

  it('raw bodies (deep nesting, invalid bytes) and odd content types on every route that takes a body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/v3/directline/conversations/${conversation.conversationId}/activities`,
          `/v3/directline/conversations/${conversation.conversationId}/upload?userId=u1`,
          '/v3/directline/conversations',
          '/v3/directline/tokens/generate',
          '/v3/directline/tokens/refresh',
          `/api/conversations/${conversation.conversationId}/messages`,
          '/api/conversations',
        ),
        contentTypes,
        rawBodies,
        fc.constantFrom('token', 'secret', 'none', 'garbage'),
        async (path, contentType, body, credential) => {
          const headers: Record<string, string> = { 'Content-Type': contentType };
          if (credential === 'token') headers.Authorization = `Bearer ${conversation.token}`;
          if (credential === 'secret') headers.Authorization = `Bearer ${SECRET}`;
          if (credential === 'garbage') headers.Authorization = 'Bearer x.y.z';
          const response = await fetch(`${fixture.relay.url}${path}`, { method: 'POST', headers, body });
          await expectWireFormat(response);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('odd paths and query strings on the main routes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
        fc.constantFrom(
          '/v3/directline/conversations/{id}/activities',
          '/v3/directline/conversations/{id}',
          '/v3/directline/conversations/{x}/activities',
          '/v3/directline/attachments/{id}/{x}/{x}',
          '/v3/directline/{x}',
          '/api/conversations/{id}/messages',
          '/{x}/{x}',
        ),
        segments,
        fc.dictionary(
          fc.constantFrom('watermark', 'userId', 't', 'api-version', 'x', 'streamUrl'),
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom('-1', '1e400', '99999999999999999999', 'NaN', '0x10', '\u0000'),
          ),
          { maxKeys: 3 },
        ),
        async (method, template, segment, query) => {
          const path = template
            .replaceAll('{id}', conversation.conversationId)
            .replaceAll('{x}', segment === '' ? 'x' : segment);
          const search = new URLSearchParams(query).toString();
          const response = await fetch(`${fixture.relay.url}${path}?${search}`, {
            method,
            headers: { Authorization: `Bearer ${conversation.token}` },
          });
          await expectWireFormat(response);
        },
      ),
      { numRuns: 100 },
    );
  });
});
