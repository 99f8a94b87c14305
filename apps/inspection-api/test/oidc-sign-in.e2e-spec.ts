import {
  CookieClient,
  freePort,
  type RunningIdentityProvider,
  signInAt,
  startIdentityProvider,
} from '@fieldops/testing';
import { startInspectionApi } from '../src';
import { TestApi } from './support/test-api';

const CLIENT = { id: 'inspection-api', secret: 'inspection-api-client-secret' };
const CHAT_ORIGIN = 'http://chat.example.test';

/** The person at the provider: login name → claims beyond sub/name/preferred_username. */
const ACCOUNTS = {
  ines: { groups: ['fieldops-inspectors'] },
  sam: { groups: ['staff', 'fieldops-supervisors'] },
  outsider: { groups: ['sales'] },
  admin: { groups: ['fieldops-supervisors'] },
};

describe('sign-in through an OpenID Connect provider (oidc-provider in its own process)', () => {
  let provider: RunningIdentityProvider;
  let api: TestApi;

  beforeAll(async () => {
    const [apiPort, idpPort] = [await freePort(), await freePort()];
    provider = await startIdentityProvider({
      port: idpPort,
      redirectUris: [`http://127.0.0.1:${apiPort}/api/oidc/callback/`],
      clients: [CLIENT],
      accounts: ACCOUNTS,
    });
    api = await TestApi.start('inspection_oidc', {
      INSPECTION_API_PORT: String(apiPort),
      INSPECTION_OIDC_ISSUER: provider.issuer,
      INSPECTION_OIDC_CLIENT_ID: CLIENT.id,
      INSPECTION_OIDC_CLIENT_SECRET: CLIENT.secret,
      INSPECTION_OIDC_SCOPES: 'openid profile groups',
      INSPECTION_OIDC_NAME: 'Example SSO',
      INSPECTION_OIDC_SUPERVISOR_VALUES: 'fieldops-supervisors',
      INSPECTION_OIDC_INSPECTOR_VALUES: 'fieldops-inspectors',
      INSPECTION_OIDC_RETURN_ORIGINS: CHAT_ORIGIN,
    });
  });
  afterAll(async () => {
    await api?.close();
    await provider?.stop();
  });

  /** Signs in at the provider as `login`, starting at login/?next=; the address the browser returned to. */
  async function signIn(
    login: string,
    next = '/console/#/devices',
    browser = new CookieClient(),
  ): Promise<URL> {
    const page = await signInAt(
      `${api.url}/api/oidc/login/?next=${encodeURIComponent(next)}`,
      login,
      browser,
    );
    return new URL(page.url);
  }

  async function pairFor(returned: URL): Promise<{ access: string; refresh: string }> {
    const code = returned.searchParams.get('oidc_code');
    if (!code) throw new Error(`no code: ${returned.href}`);
    const exchanged = await api.post('/api/oidc/token/', { code }, { token: false });
    expect(exchanged.status).toBe(201);
    return exchanged.body as { access: string; refresh: string };
  }

  it('tells pages how people sign in here', async () => {
    const options = await api.get('/api/oidc/', { token: false });
    expect(options.status).toBe(200);
    expect(options.body).toEqual({
      provider: { name: 'Example SSO', login_url: `${api.url}/api/oidc/login/` },
      local_passwords: true,
    });
  });

  it('creates the account at the first sign-in with the mapped role and returns where the person was', async () => {
    const returned = await signIn('ines');
    expect(`${returned.origin}${returned.pathname}${returned.hash}`).toBe(`${api.url}/console/#/devices`);
    const pair = await pairFor(returned);
    const me = await api.get('/api/users/me/', { token: pair.access });
    expect(me.body).toMatchObject({ username: 'ines', role: 'inspector', is_active: true });
    // The audit trail names the person as the one who created the account at their first sign-in.
    const { id } = me.body as { id: number };
    const trail = (await api.get(`/api/audit/?resource=user&resource_id=${id}`)).body as {
      results: Array<{ event: string; actor: number | null; actor_username: string }>;
    };
    expect(trail.results.find((entry) => entry.event === 'created')).toMatchObject({
      actor: id,
      actor_username: 'ines',
    });
    // The pair is simplejwt's: it refreshes like any other.
    expect((await api.post('/api/token/refresh/', { refresh: pair.refresh }, { token: false })).status).toBe(
      201,
    );
    // The code works once.
    const code = returned.searchParams.get('oidc_code');
    const again = await api.post('/api/oidc/token/', { code }, { token: false });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      detail: 'The sign-in code is invalid, expired or already used.',
      code: 'code_not_valid',
    });

    const supervisor = await pairFor(await signIn('sam'));
    expect((await api.get('/api/users/me/', { token: supervisor.access })).body).toMatchObject({
      username: 'sam',
      role: 'supervisor',
    });
  });

  it('updates the role from the provider at every sign-in; an account deactivated here stays out', async () => {
    const ines = (await api.get('/api/users/?search=ines')).body as { results: Array<{ id: number }> };
    const id = ines.results[0].id;
    expect((await api.patch(`/api/users/${id}/`, { role: 'supervisor' })).status).toBe(200);
    const pair = await pairFor(await signIn('ines'));
    expect((await api.get('/api/users/me/', { token: pair.access })).body).toMatchObject({
      id,
      role: 'inspector',
    });
    // The provider's role, set at sign-in, is audited as the person's own sign-in.
    const trail = (await api.get(`/api/audit/?resource=user&resource_id=${id}`)).body as {
      results: Array<{ changed: string[]; actor_username: string }>;
    };
    expect(trail.results[0]).toMatchObject({
      changed: expect.arrayContaining(['role']),
      actor_username: 'ines',
    });
    expect((await api.patch(`/api/users/${id}/`, { is_active: false })).status).toBe(200);
    expect((await signIn('ines')).searchParams.get('oidc_error')).toBe('account_inactive');
    expect((await api.patch(`/api/users/${id}/`, { is_active: true })).status).toBe(200);
  });

  it('refuses a person none of whose groups maps to a role, and a name a local account holds', async () => {
    const outsider = await signIn('outsider');
    expect(outsider.searchParams.get('oidc_error')).toBe('access_denied');
    expect(outsider.searchParams.has('oidc_code')).toBe(false);
    expect((await api.get('/api/users/?search=outsider')).body).toMatchObject({ count: 0 });
    expect((await signIn('admin')).searchParams.get('oidc_error')).toBe('account_conflict');
  });

  it('uses a state once: a replayed or forged callback is refused', async () => {
    const browser = new CookieClient();
    await signIn('sam', '/console/', browser);
    const callback = browser.visited.find((url) => url.includes('/api/oidc/callback/'));
    expect(callback).toBeDefined();
    const replay = await fetch(callback!, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({
      detail: 'This sign-in has expired or was already used. Start again from the sign-in page.',
      code: 'sign_in_expired',
    });
    const forged = new URL(callback!);
    forged.searchParams.set('state', 'forged-state');
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(400);
  });

  it('returns only to this site or a configured origin (the chat page)', async () => {
    const browser = new CookieClient();
    // The chat origin does not exist in the test: the browser stops there, with the code on the address.
    await signIn('sam', `${CHAT_ORIGIN}/api/session/oidc?to=%2F`, browser).catch(() => undefined);
    const chat = new URL(browser.visited[browser.visited.length - 1]);
    expect(`${chat.origin}${chat.pathname}`).toBe(`${CHAT_ORIGIN}/api/session/oidc`);
    expect(chat.searchParams.get('to')).toBe('/');
    expect(chat.searchParams.get('oidc_code')).toMatch(/^[\w-]{43}$/);
    for (const next of ['https://evil.example.net/', '//evil.example.net/', 'javascript:alert(1)']) {
      const refused = await fetch(`${api.url}/api/oidc/login/?next=${encodeURIComponent(next)}`, {
        redirect: 'manual',
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        next: ['Enter a path on this site or an address on an origin in INSPECTION_OIDC_RETURN_ORIGINS.'],
      });
    }
    const toChat = await fetch(
      `${api.url}/api/oidc/login/?next=${encodeURIComponent(`${CHAT_ORIGIN}/api/session/oidc`)}`,
      { redirect: 'manual' },
    );
    expect(toChat.status).toBe(302);
    expect(toChat.headers.get('location')).toMatch(new RegExp(`^${provider.issuer}/`));
  });

  it('sends the person back with temporarily_unavailable when the provider cannot be reached', async () => {
    const port = await freePort();
    const offline = await TestApi.start('inspection_oidc_offline', {
      INSPECTION_OIDC_ISSUER: `http://127.0.0.1:${port}`,
      INSPECTION_OIDC_CLIENT_ID: CLIENT.id,
      INSPECTION_OIDC_INSPECTOR_VALUES: '*',
    });
    try {
      const response = await fetch(`${offline.url}/api/oidc/login/?next=%2Fconsole%2F`, {
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        `${offline.url}/console/?oidc_error=temporarily_unavailable`,
      );
    } finally {
      await offline.close();
    }
  });
});

describe('local passwords turned off (INSPECTION_LOCAL_PASSWORDS=false)', () => {
  it('refuses people at POST /api/token/ with a clear 403; service accounts keep their passwords', async () => {
    const api = await TestApi.start('inspection_oidc_no_passwords', {
      INSPECTION_OIDC_ISSUER: 'http://127.0.0.1:9/',
      INSPECTION_OIDC_CLIENT_ID: CLIENT.id,
      INSPECTION_OIDC_INSPECTOR_VALUES: '*',
      INSPECTION_OIDC_NAME: 'Example SSO',
      INSPECTION_LOCAL_PASSWORDS: 'false',
      // The first user signs in as a service account here, to create a person with a password.
      INSPECTION_SERVICE_ACCOUNTS: 'admin,inspection-bot',
    });
    try {
      expect((await api.get('/api/oidc/', { token: false })).body).toMatchObject({ local_passwords: false });
      expect((await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).status).toBe(201);
      const refused = await api.post(
        '/api/token/',
        { username: 'ivy', password: 'ivy password' },
        { token: false },
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        detail: 'Sign-in with a password is turned off here: sign in with Example SSO.',
        code: 'password_sign_in_disabled',
      });
    } finally {
      await api.close();
    }
  });

  it('cannot be turned off without a provider (start-up names the variable)', async () => {
    await expect(
      startInspectionApi({ environment: { INSPECTION_LOCAL_PASSWORDS: 'false', LOG_LEVEL: 'silent' } }),
    ).rejects.toThrow(/INSPECTION_OIDC_ISSUER/);
    await expect(
      startInspectionApi({
        environment: { INSPECTION_OIDC_ISSUER: 'http://127.0.0.1:9/', LOG_LEVEL: 'silent' },
      }),
    ).rejects.toThrow(/INSPECTION_OIDC_CLIENT_ID/);
  });
});
