import { randomUUID } from 'node:crypto';
import { ConfidentialClientApplication } from '@azure/msal-node';
import jwt from 'jsonwebtoken';
import {
  CERTIFICATE_BOT,
  decodeJwt,
  type GatewayFixture,
  HASHED_BOT,
  MSI_BOT,
  ANONYMOUS_BOT,
  requestToken,
  RESOURCE,
  SCOPE,
  SECRET_BOT,
  startGatewayFixture,
} from './support/gateway';

const AAD_ERROR = {
  error: expect.any(String),
  error_description: expect.stringMatching(
    /^AADSTS\d+: .*\r\nTrace ID: .+\r\nCorrelation ID: .+\r\nTimestamp: /s,
  ),
  error_codes: [expect.any(Number)],
  timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/),
  trace_id: expect.any(String),
  correlation_id: expect.any(String),
  error_uri: expect.stringMatching(/\/error\?code=\d+$/),
};

describe('token endpoint (OAuth 2.0 client credentials)', () => {
  let fixture: GatewayFixture;
  let tokenEndpoint: string;
  beforeAll(async () => {
    fixture = await startGatewayFixture();
    tokenEndpoint = `${fixture.gateway.url}/botframework.com/oauth2/v2.0/token`;
  });
  afterAll(() => fixture.gateway.close());

  const secretForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
    grant_type: 'client_credentials',
    client_id: SECRET_BOT.appId,
    client_secret: SECRET_BOT.password,
    scope: SCOPE,
    ...overrides,
  });

  function assertion(
    key: { privateKey: import('node:crypto').KeyObject },
    claims: Record<string, unknown> = {},
    header: Record<string, unknown> = {},
  ): string {
    const now = Math.floor(Date.now() / 1000);
    return jwt.sign(
      {
        aud: tokenEndpoint,
        iss: CERTIFICATE_BOT.appId,
        sub: CERTIFICATE_BOT.appId,
        jti: randomUUID(),
        nbf: now,
        exp: now + 600,
        ...claims,
      },
      key.privateKey,
      {
        algorithm: 'RS256',
        header: {
          alg: 'RS256',
          x5t: Buffer.from(fixture.certificateThumbprint, 'hex').toString('base64url'),
          ...header,
        },
      },
    );
  }

  const assertionForm = (clientAssertion: string): Record<string, string> => ({
    grant_type: 'client_credentials',
    client_id: CERTIFICATE_BOT.appId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: clientAssertion,
    scope: SCOPE,
  });

  it('issues an RS256 access token for a client secret, in the Azure AD v2.0 shape', async () => {
    const { status, body, headers } = await requestToken(fixture.gateway, secretForm());
    expect(status).toBe(200);
    expect(body).toEqual({
      token_type: 'Bearer',
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: expect.any(String),
    });
    expect(headers.get('cache-control')).toBe('no-store');
    const { header, payload } = decodeJwt(body.access_token as string);
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1' });
    expect(payload).toMatchObject({
      aud: RESOURCE,
      iss: 'urn:fieldops:connector-gateway',
      appid: SECRET_BOT.appId,
      appidacr: '1',
      ver: '1.0',
      tid: 'botframework.com',
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
    // The token verifies against the published JWKS.
    const jwks = (await (
      await fetch(`${fixture.gateway.url}/botframework.com/discovery/v2.0/keys`)
    ).json()) as {
      keys: Array<{ kid: string }>;
    };
    expect(jwks.keys.map((key) => key.kid)).toEqual(['test-key-1']);
  });

  it('accepts an argon2-hashed app password', async () => {
    const { status } = await requestToken(fixture.gateway, {
      ...secretForm(),
      client_id: HASHED_BOT.appId,
      client_secret: HASHED_BOT.password,
    });
    expect(status).toBe(200);
  });

  it('tolerates unknown form fields and a query string (what msal sends)', async () => {
    const { status } = await requestToken(
      fixture.gateway,
      {
        ...secretForm(),
        'x-client-SKU': 'msal.js.node',
        'x-client-VER': '2.16.3',
        'client-request-id': randomUUID(),
      },
      { query: `?client-request-id=${randomUUID()}` },
    );
    expect(status).toBe(200);
  });

  it('refuses a wrong client secret: 401 invalid_client AADSTS7000215', async () => {
    const { status, body } = await requestToken(
      fixture.gateway,
      secretForm({ client_secret: 'wrong-password' }),
    );
    expect(status).toBe(401);
    expect(body).toEqual({ ...AAD_ERROR, error: 'invalid_client', error_codes: [7000215] });
  });

  it('echoes the caller’s client-request-id as correlation id', async () => {
    const id = randomUUID();
    const { body } = await requestToken(fixture.gateway, secretForm({ client_secret: 'nope' }), {
      query: `?client-request-id=${id}`,
    });
    expect(body.correlation_id).toBe(id);
  });

  it('refuses an unknown client and an anonymous bot: 401 invalid_client', async () => {
    for (const clientId of ['no-such-bot', ANONYMOUS_BOT.appId]) {
      const { status, body } = await requestToken(fixture.gateway, secretForm({ client_id: clientId }));
      expect(status).toBe(401);
      expect(body).toEqual({ ...AAD_ERROR, error: 'invalid_client', error_codes: [700016] });
    }
  });

  it('refuses a client without any credential: 401 invalid_client AADSTS7000218', async () => {
    const form = secretForm();
    delete form.client_secret;
    const { status, body } = await requestToken(fixture.gateway, form);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: 'invalid_client', error_codes: [7000218] });
  });

  it('refuses a managed-identity bot on the secret route (it has no password)', async () => {
    const { status, body } = await requestToken(fixture.gateway, secretForm({ client_id: MSI_BOT.appId }));
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
  });

  it('refuses a scope it does not serve (400 invalid_scope) and one without /.default', async () => {
    const wrong = await requestToken(
      fixture.gateway,
      secretForm({ scope: 'https://graph.microsoft.com/.default' }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ ...AAD_ERROR, error: 'invalid_scope', error_codes: [70011] });
    const bare = await requestToken(fixture.gateway, secretForm({ scope: RESOURCE }));
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
    const two = await requestToken(fixture.gateway, secretForm({ scope: `${SCOPE} openid` }));
    expect(two.body).toMatchObject({ error: 'invalid_scope' });
  });

  it('refuses another grant type: 400 unsupported_grant_type AADSTS70003', async () => {
    const { status, body } = await requestToken(fixture.gateway, secretForm({ grant_type: 'password' }));
    expect(status).toBe(400);
    expect(body).toEqual({ ...AAD_ERROR, error: 'unsupported_grant_type', error_codes: [70003] });
  });

  it.each(['grant_type', 'client_id', 'scope'])(
    'refuses a request without %s: 400 invalid_request',
    async (field) => {
      const form = secretForm();
      delete form[field];
      const { status, body } = await requestToken(fixture.gateway, form);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'invalid_request', error_codes: [900144] });
      expect(body.error_description).toContain(`'${field}'`);
    },
  );

  it('refuses a JSON body (the endpoint takes a form) and a repeated field', async () => {
    const json = await fetch(`${fixture.gateway.url}/botframework.com/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(secretForm()),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request', error_codes: [900144] });
    const repeated = await fetch(`${fixture.gateway.url}/botframework.com/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URLSearchParams(secretForm()).toString()}&client_id=other`,
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses an unknown tenant', async () => {
    const { status, body } = await requestToken(fixture.gateway, secretForm(), { tenant: 'contoso.com' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_request', error_codes: [90002] });
  });

  describe('client assertions (RFC 7523, private_key_jwt)', () => {
    it('issues a token for an assertion signed by a registered certificate key', async () => {
      const { status, body } = await requestToken(
        fixture.gateway,
        assertionForm(assertion(fixture.certificateKey)),
      );
      expect(status).toBe(200);
      expect(decodeJwt(body.access_token as string).payload).toMatchObject({
        appid: CERTIFICATE_BOT.appId,
        appidacr: '2',
      });
    });

    it('refuses an assertion signed by an unregistered key that claims the registered thumbprint', async () => {
      const { status, body } = await requestToken(
        fixture.gateway,
        assertionForm(assertion(fixture.unregisteredKey)),
      );
      expect(status).toBe(401);
      expect(body).toMatchObject({ error: 'invalid_client', error_codes: [700027] });
    });

    it('refuses an assertion naming an unregistered certificate', async () => {
      const form = assertionForm(
        assertion(fixture.certificateKey, {}, { x5t: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
      );
      const { status, body } = await requestToken(fixture.gateway, form);
      expect(status).toBe(401);
      expect(body.error_description).toContain('The key was not found');
    });

    it('refuses an expired assertion, a wrong audience and an issuer other than the client', async () => {
      const past = Math.floor(Date.now() / 1000) - 3600;
      const expired = await requestToken(
        fixture.gateway,
        assertionForm(assertion(fixture.certificateKey, { nbf: past - 600, exp: past })),
      );
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ error: 'invalid_client', error_codes: [700024] });
      const audience = await requestToken(
        fixture.gateway,
        assertionForm(
          assertion(fixture.certificateKey, { aud: 'https://login.microsoftonline.com/x/oauth2/v2.0/token' }),
        ),
      );
      expect(audience.status).toBe(401);
      const issuer = await requestToken(
        fixture.gateway,
        assertionForm(assertion(fixture.certificateKey, { iss: 'someone-else', sub: 'someone-else' })),
      );
      expect(issuer.status).toBe(401);
      const noJti = await requestToken(
        fixture.gateway,
        assertionForm(assertion(fixture.certificateKey, { jti: undefined })),
      );
      expect(noJti.status).toBe(401);
    });

    it('refuses a secret and an assertion together, and a foreign assertion type', async () => {
      const both = await requestToken(fixture.gateway, {
        ...assertionForm(assertion(fixture.certificateKey)),
        client_secret: 'x',
      });
      expect(both.status).toBe(400);
      const type = await requestToken(fixture.gateway, {
        ...assertionForm(assertion(fixture.certificateKey)),
        client_assertion_type: 'urn:other',
      });
      expect(type.status).toBe(400);
      expect(type.body).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('with the stock @azure/msal-node client (authorityMetadata + knownAuthorities)', () => {
    async function authorityMetadata(): Promise<string> {
      const response = await fetch(
        `${fixture.gateway.url}/botframework.com/v2.0/.well-known/openid-configuration`,
      );
      expect(response.status).toBe(200);
      return await response.text();
    }

    it('serves an OpenID configuration document with what msal requires', async () => {
      const document = JSON.parse(await authorityMetadata()) as Record<string, unknown>;
      expect(document).toMatchObject({
        token_endpoint: tokenEndpoint,
        issuer: 'urn:fieldops:connector-gateway',
        authorization_endpoint: expect.any(String),
        jwks_uri: `${fixture.gateway.url}/botframework.com/discovery/v2.0/keys`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
      });
    });

    it('obtains a token with a client secret', async () => {
      const client = new ConfidentialClientApplication({
        auth: {
          clientId: SECRET_BOT.appId,
          clientSecret: SECRET_BOT.password,
          authority: 'https://connector.gateway.invalid/botframework.com',
          knownAuthorities: ['connector.gateway.invalid'],
          authorityMetadata: await authorityMetadata(),
        },
      });
      const result = await client.acquireTokenByClientCredential({ scopes: [SCOPE], skipCache: true });
      expect(result?.accessToken).toBeTruthy();
      expect(decodeJwt(result?.accessToken ?? '').payload).toMatchObject({
        appid: SECRET_BOT.appId,
        aud: RESOURCE,
      });
    });

    it('obtains a token with a certificate (client assertion)', async () => {
      const client = new ConfidentialClientApplication({
        auth: {
          clientId: CERTIFICATE_BOT.appId,
          clientCertificate: {
            thumbprint: fixture.certificateThumbprint,
            privateKey: fixture.certificateKey.privatePem,
          },
          authority: 'https://connector.gateway.invalid/botframework.com',
          knownAuthorities: ['connector.gateway.invalid'],
          authorityMetadata: await authorityMetadata(),
        },
      });
      const first = await client.acquireTokenByClientCredential({ scopes: [SCOPE], skipCache: true });
      // msal reuses its assertion (same jti) for ten minutes; that must keep working.
      const second = await client.acquireTokenByClientCredential({ scopes: [SCOPE], skipCache: true });
      expect(decodeJwt(first?.accessToken ?? '').payload).toMatchObject({
        appid: CERTIFICATE_BOT.appId,
        appidacr: '2',
      });
      expect(second?.accessToken).toBeTruthy();
    });

    it('surfaces a wrong secret as ServerError invalid_client 401', async () => {
      const client = new ConfidentialClientApplication({
        auth: {
          clientId: SECRET_BOT.appId,
          clientSecret: 'wrong-password',
          authority: 'https://connector.gateway.invalid/botframework.com',
          knownAuthorities: ['connector.gateway.invalid'],
          authorityMetadata: await authorityMetadata(),
        },
      });
      await expect(
        client.acquireTokenByClientCredential({ scopes: [SCOPE], skipCache: true }),
      ).rejects.toMatchObject({
        errorCode: 'invalid_client',
        status: 401,
      });
    });
  });
});
