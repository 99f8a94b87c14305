import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type RunningService } from '@fieldops/platform';
import { InspectionApiClient, InspectionApiRefusal } from '../src';

const ACCOUNT = { username: 'inspection-bot', password: 'client-test-service-account' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('InspectionApiClient against the real inspection-api (short token lifetimes)', () => {
  let api: RunningService;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let calls: string[];
  let fetchSpy: jest.SpyInstance;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'inspection_client');
    api = await startInspectionApi({
      environment: {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        INSPECTION_ACCESS_TOKEN_LIFETIME_SECONDS: '1',
        INSPECTION_REFRESH_TOKEN_LIFETIME_SECONDS: '3',
        INSPECTION_ADMIN_USERNAME: ACCOUNT.username,
        INSPECTION_ADMIN_PASSWORD: ACCOUNT.password,
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  beforeEach(() => {
    calls = [];
    // Observes the client's requests (they still go to the real server).
    const realFetch = globalThis.fetch;
    fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      calls.push(`${init?.method ?? 'GET'} ${url.replace(api.url, '')}`);
      return realFetch(input, init);
    });
  });
  afterEach(() => fetchSpy.mockRestore());

  it('logs in once, refreshes the access token before it expires, logs in again when the refresh token expired', async () => {
    const client = new InspectionApiClient({ baseUrl: api.url, ...ACCOUNT, refreshMarginSeconds: 0 });
    await client.listDevices();
    await client.listDevices();
    expect(calls).toEqual([
      'POST /api/token/',
      'GET /api/devices/?page_size=20',
      'GET /api/devices/?page_size=20',
    ]);

    await sleep(1100);
    calls = [];
    await client.listDevices();
    expect(calls).toEqual(['POST /api/token/refresh/', 'GET /api/devices/?page_size=20']);

    await sleep(3100);
    calls = [];
    await client.listDevices();
    expect(calls).toEqual(['POST /api/token/refresh/', 'POST /api/token/', 'GET /api/devices/?page_size=20']);
  }, 20_000);

  it('renews and retries once when a request answers 401 (token expired by the server’s clock)', async () => {
    // A margin far below zero makes the client keep an expired token until the server refuses it.
    const client = new InspectionApiClient({ baseUrl: api.url, ...ACCOUNT, refreshMarginSeconds: -3600 });
    await client.listDevices();
    await sleep(1100);
    calls = [];
    const page = await client.listDevices();
    expect(page.count).toBe(0);
    expect(calls).toEqual([
      'GET /api/devices/?page_size=20',
      'POST /api/token/refresh/',
      'GET /api/devices/?page_size=20',
    ]);
  }, 10_000);

  it('turns DRF errors into plain sentences', async () => {
    const wrong = new InspectionApiClient({
      baseUrl: api.url,
      username: ACCOUNT.username,
      password: 'wrong',
    });
    const refusal = await wrong.listDevices().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InspectionApiRefusal);
    expect(refusal).toMatchObject({
      status: 401,
      reasons: ['No active account found with the given credentials.'],
    });

    const client = new InspectionApiClient({ baseUrl: api.url, ...ACCOUNT });
    const invalid = await client
      .createDevice({ name: '', code: 'X'.repeat(101) })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({
      status: 400,
      reasons: [
        'Name: This field may not be blank.',
        'Code: Ensure this field has no more than 100 characters.',
      ],
    });
  });
});
