import { ParityHarness, wireExchange } from '@fieldops/testing';
import { TestApi } from './support/test-api';

/**
 * `GET /api/devices/` has a fast path in front of the framework (devices-list.route.ts) for a plain, already
 * verified bearer header. For the same app, the fast path and the framework alone give the same bytes (status,
 * headers in order, body); refusals are left to the framework, with the status its guards give.
 */
describe('the pre-routed devices list', () => {
  let api: TestApi;
  let parity: ParityHarness;
  let token: string;
  let inspector: string;
  beforeAll(async () => {
    api = await TestApi.start('inspection_devices_front');
    parity = await ParityHarness.start(api.url, api.app);
    for (let index = 0; index < 5; index += 1)
      await api.createDevice({ name: `Pump ${index} "ü"\u2028`, group: index % 2 ? 'north' : 'south' });
    token = await api.token();
    expect((await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).status).toBe(201);
    inspector = (await api.tokens('ivy', 'ivy password')).access;
  });
  afterAll(async () => {
    await parity?.close();
    await api?.close();
  });

  // The framework first: it verifies the token, so the front then claims the same request.
  const list = (path: string, bearer = token, extra: Record<string, string> = {}) =>
    parity.both({ path, headers: { authorization: `Bearer ${bearer}`, ...extra } });

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
    const { framework, fast } = await list(path);
    expect(fast).toEqual(framework);
    expect([200, 404]).toContain(fast.status);
  });

  it('answers an inspector as the framework does', async () => {
    const { framework, fast } = await list('/api/devices/?page_size=2', inspector);
    expect(fast.status).toBe(200);
    expect(fast).toEqual(framework);
  });

  it.each([
    ['an unknown token', { authorization: 'Bearer not-a-token' }, 401],
    ['a disallowed host', { authorization: 'Bearer <token>', host: 'evil.invalid' }, 400],
    ['no credentials', {}, 401],
    ['a Basic header', { authorization: 'Basic YTpi' }, 401],
  ])('refuses %s as the framework does', async (_name, headers: Record<string, string>, status) => {
    const withToken = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value.replace('<token>', token)]),
    );
    const { framework, fast } = await parity.both({ path: '/api/devices/', headers: withToken });
    expect(fast).toEqual(framework);
    expect(fast.status).toBe(status);
  });

  it('counts its answers in /metrics under the framework route’s labels', async () => {
    const series = /http_requests_total\{method="GET",route="\/api\/devices",status="200"[^}]*\} (\d+)/;
    const count = async () =>
      Number(series.exec((await wireExchange(api.url, { path: '/metrics' })).body)?.[1] ?? 0);
    const before = await count();
    await list('/api/devices/?page_size=1');
    // Both answers count: the framework-only listener runs the same app's metrics middleware.
    expect(await count()).toBe(before + 2);
  });
});
