import { request as httpRequest } from 'node:http';
import { TestApi } from './support/test-api';

interface RawAnswer {
  status: number;
  /** Every header in wire order and case, `Date` left out. */
  headers: string[];
  body: string;
}

/**
 * `GET /api/devices/` is answered before Express (devices-list.route.ts) when its bearer header is plain
 * `Bearer <token>` and already verified; `Bearer  <token>` (two spaces) is normalised by authorizationHeaderMiddleware,
 * so Express answers it. Both must give the same bytes: status, headers in order, body.
 */
describe('the pre-routed devices list', () => {
  let api: TestApi;
  let token: string;
  let inspector: string;
  beforeAll(async () => {
    api = await TestApi.start('inspection_devices_front');
    for (let index = 0; index < 5; index += 1)
      await api.createDevice({ name: `Pump ${index} "ü"\u2028`, group: index % 2 ? 'north' : 'south' });
    token = await api.token();
    expect((await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).status).toBe(201);
    inspector = (await api.tokens('ivy', 'ivy password')).access;
  });
  afterAll(() => api?.close());

  function raw(path: string, headers: Record<string, string>): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${api.url}${path}`, { headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          const pairs: string[] = [];
          for (let index = 0; index < response.rawHeaders.length; index += 2) {
            if (response.rawHeaders[index]?.toLowerCase() === 'date') continue;
            pairs.push(`${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}`);
          }
          resolve({ status: response.statusCode ?? 0, headers: pairs, body });
        });
      });
      request.on('error', reject);
      request.end();
    });
  }

  async function bothWays(path: string, bearer = token, extra: Record<string, string> = {}) {
    const headers = { 'x-request-id': 'same-id', ...extra };
    // The framework first: it verifies the token, so the plain header is then claimed by the front.
    const framework = await raw(path, { ...headers, authorization: `Bearer  ${bearer}` });
    const front = await raw(path, { ...headers, authorization: `Bearer ${bearer}` });
    return { framework, front };
  }

  it.each([
    '/api/devices/',
    '/api/devices',
    '/api/devices/?page_size=2',
    '/api/devices/?page=2&page_size=2&search=pump',
    '/api/devices/?page=last&page_size=2',
    '/api/devices/?page_size=1&group=north&z=%C3%BC+1&a=&a=2',
    '/api/devices/?page_size=1000',
    '/api/devices/?search=nothing-matches',
    '/api/devices/?page=99',
    '/api/devices/?page=abc',
    '/api/devices/?search=%00',
  ])('answers %s with the framework’s bytes', async (path) => {
    const { framework, front } = await bothWays(path);
    expect(front).toEqual(framework);
    expect([200, 404]).toContain(front.status);
  });

  it('answers an inspector as the framework does', async () => {
    const { framework, front } = await bothWays('/api/devices/?page_size=2', inspector);
    expect(front.status).toBe(200);
    expect(front).toEqual(framework);
  });

  it('leaves refusals to the framework: unknown token, disallowed host, no credentials', async () => {
    const invalid = await raw('/api/devices/', { authorization: 'Bearer not-a-token' });
    expect(invalid.status).toBe(401);
    expect(JSON.parse(invalid.body)).toMatchObject({ code: 'token_not_valid' });
    const host = await raw('/api/devices/', { authorization: `Bearer ${token}`, host: 'evil.invalid' });
    expect(host.status).toBe(400);
    expect(JSON.parse(host.body)).toEqual({ detail: 'Invalid HTTP_HOST header.' });
    const none = await raw('/api/devices/', {});
    expect(none.status).toBe(401);
  });

  it('counts its answers in /metrics under the framework route’s labels', async () => {
    const series = /http_requests_total\{method="GET",route="\/api\/devices",status="200"[^}]*\} (\d+)/;
    const count = async () =>
      Number(series.exec((await api.get('/metrics', { token: false })).text)?.[1] ?? 0);
    const before = await count();
    await bothWays('/api/devices/?page_size=1');
    expect(await count()).toBe(before + 2);
  });
});
