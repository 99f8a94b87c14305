import jwt from 'jsonwebtoken';
import { ADMIN, SIGNING_KEY, TestApi } from './support/test-api';

const NOT_PROVIDED = { detail: 'Authentication credentials were not provided.' };
const INVALID_BEARER = {
  detail: 'Given token not valid for any token type',
  code: 'token_not_valid',
  messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token is invalid or expired' }],
};

function forge(claims: object, key = SIGNING_KEY, options: jwt.SignOptions = {}): string {
  return jwt.sign({ token_type: 'access', user_id: 1, jti: 'a'.repeat(32), ...claims }, key, {
    algorithm: 'HS256',
    keyid: 'inspection-1',
    expiresIn: 300,
    ...options,
  });
}

describe('authentication', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_auth', { INSPECTION_ACCESS_TOKEN_LIFETIME_SECONDS: '120' });
  });
  afterAll(() => api?.close());

  it('obtains a token pair with 201 and simplejwt claims', async () => {
    const response = await api.post('/api/token/', ADMIN, { token: false });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(response.body as object)).toEqual(['refresh', 'access']);
    const { access, refresh } = response.body as { access: string; refresh: string };
    const accessClaims = jwt.verify(access, SIGNING_KEY) as jwt.JwtPayload;
    const refreshClaims = jwt.verify(refresh, SIGNING_KEY) as jwt.JwtPayload;
    expect(accessClaims).toMatchObject({ token_type: 'access', user_id: 1 });
    expect(accessClaims.jti).toMatch(/^[0-9a-f]{32}$/);
    expect((accessClaims.exp ?? 0) - (accessClaims.iat ?? 0)).toBe(120);
    expect(refreshClaims).toMatchObject({ token_type: 'refresh', user_id: 1 });
    expect((refreshClaims.exp ?? 0) - (refreshClaims.iat ?? 0)).toBe(86_400);
  });

  it('accepts form-encoded credentials', async () => {
    const response = await api.call('POST', '/api/token', {
      raw: new URLSearchParams(ADMIN).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      token: false,
    });
    expect(response.status).toBe(201);
  });

  it('refuses wrong credentials with 401 and WWW-Authenticate', async () => {
    for (const body of [
      { username: 'admin', password: 'wrong' },
      { username: 'nobody', password: 'x' },
    ]) {
      const response = await api.post('/api/token/', body, { token: false });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'No active account found with the given credentials' });
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    }
  });

  it('answers missing or blank credentials with field errors', async () => {
    expect((await api.post('/api/token/', {}, { token: false })).body).toEqual({
      username: ['This field is required.'],
      password: ['This field is required.'],
    });
    const blank = await api.post('/api/token/', { username: '', password: 'x' }, { token: false });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ username: ['This field may not be blank.'] });
  });

  it('refreshes with 201 and refuses bad, wrong-type or missing refresh tokens', async () => {
    const { access, refresh } = await api.tokens();
    const ok = await api.post('/api/token/refresh/', { refresh }, { token: false });
    expect(ok.status).toBe(201);
    expect(Object.keys(ok.body as object)).toEqual(['access']);
    expect((await api.get('/api/devices/', { token: (ok.body as { access: string }).access })).status).toBe(
      200,
    );

    const garbage = await api.post('/api/token/refresh/', { refresh: 'abc' }, { token: false });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' });
    expect(garbage.headers.get('www-authenticate')).toBe('Bearer realm="api"');

    const wrongType = await api.post('/api/token/refresh/', { refresh: access }, { token: false });
    expect(wrongType.status).toBe(401);
    expect(wrongType.body).toEqual({ detail: 'Token has wrong type', code: 'token_not_valid' });

    const expired = forge({ token_type: 'refresh' }, SIGNING_KEY, { expiresIn: -10 });
    expect((await api.post('/api/token/refresh/', { refresh: expired }, { token: false })).body).toEqual({
      detail: 'Token is invalid or expired',
      code: 'token_not_valid',
    });

    const missing = await api.post('/api/token/refresh/', {}, { token: false });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ refresh: ['This field is required.'] });
  });

  it('answers 405 with Allow on the token views without asking for a bearer token', async () => {
    const response = await api.get('/api/token/', { token: false });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ detail: 'Method "GET" not allowed.' });
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it.each([
    ['no header', {}, NOT_PROVIDED],
    ['another scheme', { authorization: 'Token abc' }, NOT_PROVIDED],
    ['lower-case scheme', { authorization: 'bearer abc' }, NOT_PROVIDED],
    ['garbage', { authorization: 'Bearer abc' }, INVALID_BEARER],
    [
      'Bearer alone',
      { authorization: 'Bearer' },
      {
        detail: 'Authorization header must contain two space-delimited values',
        code: 'bad_authorization_header',
      },
    ],
    [
      'three values',
      { authorization: 'Bearer a b' },
      {
        detail: 'Authorization header must contain two space-delimited values',
        code: 'bad_authorization_header',
      },
    ],
  ])('refuses %s with 401 and WWW-Authenticate', async (_label, headers, body) => {
    const response = await api.get('/api/devices/', { headers, token: false });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(body);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  it('refuses expired, foreign-key, alg none, refresh-typed and unknown-user tokens', async () => {
    const bearer = async (token: string) => api.get('/api/devices/', { token });
    expect((await bearer(forge({}, SIGNING_KEY, { expiresIn: -10 }))).body).toEqual(INVALID_BEARER);
    expect((await bearer(forge({}, 'another key that is long enough to be used here'))).body).toEqual(
      INVALID_BEARER,
    );
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'inspection-1' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ token_type: 'access', user_id: 1, jti: 'x', exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url')}.`;
    expect((await bearer(none)).status).toBe(401);
    const wrongType = await bearer((await api.tokens()).refresh);
    expect(wrongType.status).toBe(401);
    expect(wrongType.body).toEqual({
      ...INVALID_BEARER,
      messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token has wrong type' }],
    });
    const ghost = await bearer(forge({ user_id: 999 }));
    expect(ghost.status).toBe(401);
    expect(ghost.body).toEqual({ detail: 'User not found', code: 'user_not_found' });
  });

  it('checks authentication before the method and the object', async () => {
    for (const [method, path] of [
      ['PUT', '/api/devices/'],
      ['DELETE', '/api/devices/999/'],
      ['GET', '/api/devices/abc/'],
      ['OPTIONS', '/api/records/'],
      ['GET', '/api/'],
    ] as const) {
      const response = await api.call(method, path, { token: false });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(NOT_PROVIDED);
    }
    // A malformed body is only read after authentication, too.
    const malformed = await api.call('POST', '/api/devices/', {
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
      token: false,
    });
    expect(malformed.status).toBe(401);
  });
});
