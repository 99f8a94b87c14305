import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { TestApi } from './support/test-api';

const RESOURCES = ['devices', 'items', 'plans', 'records'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
const CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'text/plain',
  'application/json; charset=latin-9',
  'image/png',
] as const;

/** Values that stress DRF field handling: wrong types, huge numbers, NULs, lone surrogates, nesting. */
const nasty = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e20,
    -1e20,
    2147483648,
    '',
    ' ',
    '\u0000',
    '\ud800',
    'x'.repeat(300),
  ),
  fc.string({ unit: 'binary' }),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 5 }),
);

const fieldNames = fc.constantFrom(
  'name',
  'code',
  'location',
  'group',
  'description',
  'expected_value',
  'device',
  'devices',
  'frequency',
  'active',
  'status',
  'value',
  'note',
  'checked_by',
  'plan',
  'item',
  'photo',
  'attachment',
  'id',
  'username',
  'password',
  'refresh',
);

const bodies = fc.oneof(fc.dictionary(fieldNames, nasty, { maxKeys: 8 }), nasty);

const ids = fc.oneof(
  fc.integer({ min: -5, max: 40 }).map(String),
  fc.constantFrom('0', '99999999999999999999', '1.5', '%00', '%F0%9F%98%80', 'abc', '1e3', '%20'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);

describe('no input produces a 5xx', () => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await TestApi.start('inspection_properties');
    token = await api.token();
    for (let index = 0; index < 5; index += 1) {
      const device = await api.createDevice();
      await api.post('/api/items/', { name: 'I', device: device.id });
      await api.post('/api/plans/', { name: 'P', devices: [device.id], frequency: 'daily' });
      await api.post('/api/records/', { status: 'ok', device: device.id });
    }
  });
  afterAll(() => api?.close());

  it('random JSON bodies on every resource and method', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES),
        fc.option(ids, { nil: undefined }),
        fc.constantFrom(...METHODS),
        bodies,
        fc.boolean(),
        async (resource, id, method, body, slash) => {
          const path = `/api/${resource}${id === undefined ? '' : `/${id}`}${slash ? '/' : ''}`;
          const withBody = method !== 'GET' && method !== 'HEAD';
          const response = await fetch(`${api.url}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: withBody ? JSON.stringify(body) : undefined,
          });
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('random raw bodies and content types, including the token endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ...RESOURCES.map((r) => `/api/${r}/`),
          '/api/token/',
          '/api/token/refresh/',
          '/api/records/1/',
        ),
        fc.constantFrom('POST', 'PUT', 'PATCH'),
        fc.constantFrom(...CONTENT_TYPES),
        fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.uint8Array({ maxLength: 200 })),
        fc.boolean(),
        async (path, method, contentType, raw, authenticated) => {
          const headers: Record<string, string> = { 'content-type': contentType };
          if (authenticated) headers.authorization = `Bearer ${token}`;
          const response = await fetch(`${api.url}${path}`, { method, headers, body: raw });
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('deep nesting and invalid UTF-8 in JSON bodies are parse errors (400), never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RESOURCES.map((r) => `/api/${r}/`), '/api/token/', '/api/records/1/'),
        fc.constantFrom('POST', 'PUT', 'PATCH'),
        fc.oneof(
          fc
            .integer({ min: 65, max: 20_000 })
            .map((depth) => `{"name":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`),
          fc.integer({ min: 65, max: 20_000 }).map((depth) => `{"name":${'['.repeat(depth)}`),
          fc
            .uint8Array({ minLength: 1, maxLength: 6 })
            .filter((bytes) => !isUtf8(bytes))
            .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')])),
        ),
        async (path, method, raw) => {
          const response = await fetch(`${api.url}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: raw,
          });
          const text = await response.text();
          expect(response.status).toBeLessThan(500);
          if (response.status === 400) expect(text).toMatch(/^\{"detail":"JSON parse error - /);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('random query strings on the lists', async () => {
    const params = fc.dictionary(
      fc.constantFrom(
        'page',
        'page_size',
        'device',
        'plan',
        'item',
        'status',
        'checked_after',
        'checked_before',
        'group',
        'search',
        'active',
        'x',
      ),
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom('last', '%00', '1e400', '2024-02-30', '9999-12-31T23:59:59+23:59'),
      ),
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RESOURCES), params, async (resource, query) => {
        const search = new URLSearchParams(query).toString();
        const response = await fetch(`${api.url}/api/${resource}/?${search}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('random Authorization headers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (value) => {
        const header = `Bearer ${value}`.replace(/[^\t\x20-\x7e]/g, '');
        const response = await fetch(`${api.url}/api/devices/`, { headers: { authorization: header } });
        await response.arrayBuffer();
        expect([200, 401]).toContain(response.status);
      }),
      { numRuns: 200 },
    );
  });
});
