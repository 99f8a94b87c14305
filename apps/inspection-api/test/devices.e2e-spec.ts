import { TestApi } from './support/test-api';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;

describe('devices', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_devices');
  });
  afterAll(() => api?.close());

  it('creates, reads, replaces, patches and deletes a device in the spec field order', async () => {
    const created = await api.post('/api/devices/', {
      name: '  Pump 1  ',
      code: 'P-1',
      location: 'Hall A',
      id: 77,
      created_at: '2000-01-01T00:00:00Z',
      check_items: [{ name: 'x' }],
      bogus: 1,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.headers.get('location')).toBeNull();
    const device = created.body as Record<string, unknown>;
    expect(Object.keys(device)).toEqual([
      'id',
      'check_items',
      'created_at',
      'name',
      'code',
      'location',
      'group',
    ]);
    expect(device).toMatchObject({
      check_items: [],
      name: 'Pump 1',
      code: 'P-1',
      location: 'Hall A',
      group: '',
    });
    expect(device.id).not.toBe(77);
    expect(device.created_at).toMatch(TIMESTAMP);
    expect(created.text).not.toContain(' : ');

    const id = device.id as number;
    expect((await api.get(`/api/devices/${id}/`)).body).toEqual(device);

    const onlyName = await api.put(`/api/devices/${id}/`, { name: 'Only name' });
    expect(onlyName.status).toBe(400);
    expect(onlyName.body).toEqual({ code: ['This field is required.'] });

    const replaced = await api.put(`/api/devices/${id}/`, { name: 'Pump 1b', code: 'P-1' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Pump 1b', code: 'P-1', location: 'Hall A' });

    const noop = await api.patch(`/api/devices/${id}/`, {});
    expect(noop.status).toBe(200);
    const patched = await api.patch(`/api/devices/${id}`, { group: 'north' });
    expect(patched.body).toMatchObject({ name: 'Pump 1b', group: 'north' });

    const deleted = await api.delete(`/api/devices/${id}/`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers.get('content-type')).toBeNull();
    expect((await api.delete(`/api/devices/${id}/`)).status).toBe(404);
    expect((await api.put(`/api/devices/${id}/`, { name: 'x', code: 'y' })).status).toBe(404);
  });

  it.each([
    [{}, { name: ['This field is required.'], code: ['This field is required.'] }],
    [
      { name: 'x'.repeat(201), code: 'c'.repeat(101), location: 'l'.repeat(201), group: 'g'.repeat(101) },
      {
        name: ['Ensure this field has no more than 200 characters.'],
        code: ['Ensure this field has no more than 100 characters.'],
        location: ['Ensure this field has no more than 200 characters.'],
        group: ['Ensure this field has no more than 100 characters.'],
      },
    ],
    [
      { name: '', code: '   ', location: null },
      {
        name: ['This field may not be blank.'],
        code: ['This field may not be blank.'],
        location: ['This field may not be null.'],
      },
    ],
    [
      { name: true, code: ['a'], location: { a: 1 } },
      { name: ['Not a valid string.'], code: ['Not a valid string.'], location: ['Not a valid string.'] },
    ],
    [{ name: 'a\u0000b', code: 'n' }, { name: ['Null characters are not allowed.'] }],
    [[1], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ['text', { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }],
    [null, { non_field_errors: ['No data provided'] }],
  ])('refuses %j with DRF field errors', async (body, errors) => {
    const response = await api.post('/api/devices/', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });

  it('stringifies numbers, counts characters not bytes, and keeps codes unique', async () => {
    const numbers = await api.post('/api/devices/', { name: 123, code: 4.5 });
    expect(numbers.body).toMatchObject({ name: '123', code: '4.5' });
    const unicode = await api.post('/api/devices/', { name: '😀'.repeat(200), code: 'ü\u2028x' });
    expect(unicode.status).toBe(201);
    expect(unicode.text).toContain('ü\\u2028x');
    const duplicate = await api.post('/api/devices/', { name: 'x', code: '4.5' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ code: ['device with this code already exists.'] });
    const other = await api.createDevice();
    const patchToTaken = await api.patch(`/api/devices/${other.id}/`, { code: '4.5' });
    expect(patchToTaken.body).toEqual({ code: ['device with this code already exists.'] });
    expect((await api.put(`/api/devices/${other.id}/`, { name: 'same', code: other.code })).status).toBe(200);
  });

  it('answers body errors in DRF shape: malformed JSON, media type, size, empty body', async () => {
    const malformed = await api.call('POST', '/api/devices/', {
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      detail: 'JSON parse error - Expecting value: line 1 column 9 (char 8)',
    });
    const text = await api.call('POST', '/api/devices/', {
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
    const empty = await api.call('POST', '/api/devices/', {
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.body).toEqual({ name: ['This field is required.'], code: ['This field is required.'] });
    const huge = await api.call('POST', '/api/devices/', {
      raw: JSON.stringify({ name: 'x'.repeat(3_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ detail: expect.stringContaining('limit') as string });
  });

  it('answers 404 for missing, non-numeric and out-of-range ids, and unknown paths', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '99999999999999999999', '1.5']) {
      const response = await api.get(`/api/devices/${id}/`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Not found.' });
    }
    expect((await api.get('/api/nothing/')).status).toBe(404);
  });

  it('answers 405 with Allow, OPTIONS metadata and HEAD', async () => {
    const put = await api.put('/api/devices/', {});
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ detail: 'Method "PUT" not allowed.' });
    expect(put.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const { id } = await api.createDevice();
    const post = await api.post(`/api/devices/${id}/`, {});
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ detail: 'Method "POST" not allowed.' });
    expect(post.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const options = await api.call('OPTIONS', '/api/devices/');
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ name: 'Device List', renders: ['application/json'] });
    const head = await api.call('HEAD', `/api/devices/${id}/`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('serves the API root', async () => {
    const root = await api.get('/api/');
    expect(root.status).toBe(200);
    expect(root.body).toEqual({
      devices: `${api.url.replace('127.0.0.1', '127.0.0.1')}/api/devices/`,
      items: `${api.url}/api/items/`,
      plans: `${api.url}/api/plans/`,
      records: `${api.url}/api/records/`,
    });
  });
});

describe('device pages', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_pages');
    for (let index = 0; index < 45; index += 1)
      await api.post('/api/devices/', {
        name: index % 2 ? `Pump ${index}` : `Valve ${index}`,
        code: `C-${String(index).padStart(3, '0')}`,
        group: index % 3 ? 'north' : 'south',
      });
  });
  afterAll(() => api?.close());

  it('walks every page in id order with DRF links', async () => {
    const seen: number[] = [];
    let url: string | null = `/api/devices/?page_size=10&zzz=1`;
    let pages = 0;
    while (url) {
      const response = await api.get(url.replace(api.url, ''));
      expect(response.status).toBe(200);
      const page = response.body as {
        count: number;
        next: string | null;
        previous: string | null;
        results: Array<{ id: number }>;
      };
      expect(Object.keys(page)).toEqual(['count', 'next', 'previous', 'results']);
      expect(page.count).toBe(45);
      seen.push(...page.results.map((device) => device.id));
      pages += 1;
      if (pages === 2) {
        expect(page.previous).toBe(`${api.url}/api/devices/?page_size=10&zzz=1`);
        expect(page.next).toBe(`${api.url}/api/devices/?page=3&page_size=10&zzz=1`);
      }
      url = page.next;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(45);
  });

  it('uses 20 by default, clamps page_size to 100, ignores invalid page_size, supports page=last', async () => {
    expect(((await api.get('/api/devices/')).body as { results: unknown[] }).results).toHaveLength(20);
    expect(
      ((await api.get('/api/devices/?page_size=1000')).body as { results: unknown[] }).results,
    ).toHaveLength(45);
    for (const size of ['0', '-1', 'abc', ''])
      expect(
        ((await api.get(`/api/devices/?page_size=${size}`)).body as { results: unknown[] }).results,
      ).toHaveLength(20);
    const last = await api.get('/api/devices/?page=last&page_size=20');
    expect((last.body as { results: unknown[]; next: unknown }).results).toHaveLength(5);
    expect((last.body as { next: unknown }).next).toBeNull();
    expect((last.body as { previous: string }).previous).toBe(`${api.url}/api/devices/?page=2&page_size=20`);
  });

  it.each(['99', '0', '-1', 'abc', '2.0', '', '1e3'])(
    'answers page=%s with 404 Invalid page.',
    async (page) => {
      const response = await api.get(`/api/devices/?page=${page}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Invalid page.' });
    },
  );

  it('builds links from Host and from trusted proxies only', async () => {
    const viaProxy = await api.get('/api/devices/?page_size=5', {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'inspect.example.test' },
    });
    expect((viaProxy.body as { next: string }).next).toBe(
      'https://inspect.example.test/api/devices/?page=2&page_size=5',
    );
    const encoded = await api.get('/api/devices/?page_size=5&q=a+b%26c&%C3%BC=%E2%82%AC');
    expect((encoded.body as { next: string }).next).toBe(
      `${api.url}/api/devices/?page=2&page_size=5&q=a+b%26c&%C3%BC=%E2%82%AC`,
    );
  });

  it('filters by group and searches name and code; unknown parameters are ignored', async () => {
    const south = (await api.get('/api/devices/?group=south&page_size=100&unknown=1')).body as {
      count: number;
      results: Array<{ group: string }>;
    };
    expect(south.count).toBe(15);
    expect(south.results.every((device) => device.group === 'south')).toBe(true);
    const search = (await api.get('/api/devices/?search=pump')).body as { count: number };
    expect(search.count).toBe(22);
    const byCode = (await api.get('/api/devices/?search=c-00')).body as { count: number };
    expect(byCode.count).toBe(10);
    const both = (await api.get('/api/devices/?search=valve%20c-00')).body as { count: number };
    expect(both.count).toBe(5);
    expect(((await api.get('/api/devices/?search=%25_%5C%00')).body as { count: number }).count).toBe(0);
  });

  it('lists the distinct groups for group filters (GET /api/devices/groups/), not taken for a device id', async () => {
    await api.post('/api/devices/', { name: 'No group', code: 'NG-1' });
    const groups = await api.get('/api/devices/groups/');
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual(['north', 'south']);
    expect(groups.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await api.get('/api/devices/groups')).body).toEqual(['north', 'south']);
    const post = await api.post('/api/devices/groups/', {});
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ detail: 'Method "POST" not allowed.' });
    expect((await api.get('/api/devices/1/')).status).toBe(200);
  });
});

describe('device links behind an untrusted proxy', () => {
  it('ignores X-Forwarded-* from a client that is not a trusted proxy', async () => {
    const api = await TestApi.start('inspection_proxy', { TRUST_PROXY: '10.9.9.9' });
    try {
      await api.createDevice();
      await api.createDevice();
      const response = await api.get('/api/devices/?page_size=1', {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
      });
      expect((response.body as { next: string }).next).toBe(`${api.url}/api/devices/?page=2&page_size=1`);
    } finally {
      await api.close();
    }
  });
});
