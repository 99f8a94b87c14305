import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpFront } from '@fieldops/platform';
import { ParityHarness, wireExchange } from '@fieldops/testing';
import { TestApi } from './support/test-api';

/**
 * `GET /api/devices/` (DevicesController.list, `@FastPath()`) is answered in front of the framework. For the same
 * app, the fast path and the framework alone give the same bytes (status, headers in order, body) for successes
 * and refusals, HEAD included; each refusal also has the status the guards give, so a guard taken away fails here.
 */
describe('the devices list: fast path and framework give the same bytes', () => {
  let api: TestApi;
  let parity: ParityHarness;
  let token: string;
  let inspector: string;
  let consoleDir: string;
  beforeAll(async () => {
    // With the console served (as `npm start` serves it): its middleware is in front of the API's routes too.
    consoleDir = await mkdtemp(join(tmpdir(), 'console-'));
    await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    api = await TestApi.start('inspection_devices_front', { INSPECTION_CONSOLE_DIR: consoleDir });
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
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  it('has the devices list as its fast route (each case below runs through it)', () => {
    expect(api.app.get(HttpFront).fastRoutes.map(({ method, route }) => `${method} ${route}`)).toEqual([
      'GET /api/devices',
    ]);
  });

  const list = (path: string, bearer = token, extra: Record<string, string> = {}) =>
    parity.both({ path, headers: { authorization: `Bearer ${bearer}`, ...extra } });

  /** How many requests the fast route's handler served during `run` (the framework's calls the controller itself). */
  async function servedFast<T>(run: () => Promise<T>): Promise<[T, number]> {
    const served = jest.spyOn(api.app.get(HttpFront).fastRoutes[0], 'handle');
    try {
      const result = await run();
      return [result, served.mock.calls.length];
    } finally {
      served.mockRestore();
    }
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
    '/API/Devices/?page=2&page_size=2',
  ])('answers %s with the framework’s bytes', async (path) => {
    const [{ framework, fast }, served] = await servedFast(() => list(path));
    expect(served).toBe(1);
    expect(fast).toEqual(framework);
    expect([200, 404]).toContain(fast.status);
  });

  it('gives the pagination links the framework gives, on the host a trusted proxy forwards (TRUST_PROXY: loopback)', async () => {
    const { framework, fast } = await list('/api/devices/?page=2&page_size=2', token, {
      'X-Forwarded-Host': 'api.example.test, inner',
      'X-Forwarded-Proto': 'https',
    });
    expect(fast).toEqual(framework);
    const page = JSON.parse(fast.body) as { next: string; previous: string };
    expect(page.next).toBe('https://api.example.test/api/devices/?page=3&page_size=2');
    expect(page.previous).toBe('https://api.example.test/api/devices/?page_size=2');
    const refused = await list('/api/devices/', token, { 'X-Forwarded-Host': 'evil.invalid' });
    expect(refused.fast).toEqual(refused.framework);
    expect(refused.fast.status).toBe(400);
  });

  it.each(['/api/devices/?page_size=2', '/api/devices/?page=99', '/api/devices/?archived=true'])(
    'answers HEAD %s as Express does: the GET’s status and headers, no body',
    async (path) => {
      const [head, served] = await servedFast(() =>
        parity.both({ method: 'HEAD', path, headers: { authorization: `Bearer ${token}` } }),
      );
      expect(served).toBe(1);
      expect(head.fast).toEqual(head.framework);
      expect(head.fast.body).toBe('');
      const get = await list(path);
      expect(head.fast.status).toBe(get.fast.status);
      expect(head.fast.headers).toEqual(get.fast.headers);
    },
  );

  it('answers an inspector as the framework does', async () => {
    const { framework, fast } = await list('/api/devices/?page_size=2', inspector);
    expect(fast.status).toBe(200);
    expect(fast).toEqual(framework);
  });

  it.each([
    ['an unknown token', '/api/devices/', { authorization: 'Bearer not-a-token' }, 401],
    ['a disallowed host', '/api/devices/', { authorization: 'Bearer <token>', host: 'evil.invalid' }, 400],
    ['no credentials', '/api/devices/', {}, 401],
    ['a Basic header', '/api/devices/', { authorization: 'Basic YTpi' }, 401],
    ['a bearer header of three values', '/api/devices/', { authorization: 'Bearer <token> x' }, 401],
    [
      'an inspector asking for archived devices',
      '/api/devices/?archived=true',
      { authorization: 'Bearer <inspector>' },
      403,
    ],
    ['an invalid page (DRF: 404, not 400)', '/api/devices/?page=0', { authorization: 'Bearer <token>' }, 404],
    [
      'a bad query value (DRF: the default page)',
      '/api/devices/?page_size=-1&archived=maybe',
      { authorization: 'Bearer <token>' },
      200,
    ],
    [
      'a GET with a body (the framework’s)',
      '/api/devices/',
      { authorization: 'Bearer <token>', 'content-length': '0' },
      200,
    ],
  ])('answers %s as the framework does', async (_name, path, headers: Record<string, string>, status) => {
    const withToken = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        value.replace('<token>', token).replace('<inspector>', inspector),
      ]),
    );
    const { framework, fast } = await parity.both({ path, headers: withToken });
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
