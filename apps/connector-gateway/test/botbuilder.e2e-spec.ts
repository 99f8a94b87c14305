import { withProcessEnvironment } from '@fieldops/testing';
import { ManagedIdentityCredential } from '@azure/identity';
import {
  ConfigurationBotFrameworkAuthentication,
  ConfigurationServiceClientCredentialFactory,
  type Activity,
} from 'botbuilder';
import jwt from 'jsonwebtoken';
import { BotTokenMinter } from '../src';
import {
  decodeJwt,
  type GatewayFixture,
  IDENTITY_HEADER,
  MSI_BOT,
  RESOURCE,
  SCOPE,
  SECRET_BOT,
  startGatewayFixture,
  SYSTEM_MSI_BOT,
} from './support/gateway';
import { rsaKeyPair } from './support/keys';

describe('stock botbuilder 4.23.3 against the gateway', () => {
  let fixture: GatewayFixture;
  let restoreEnvironment: () => void;
  beforeAll(async () => {
    fixture = await startGatewayFixture();
    restoreEnvironment = withProcessEnvironment({
      IDENTITY_ENDPOINT: `${fixture.gateway.url}/msi/token`,
      IDENTITY_HEADER,
    });
  });
  afterAll(async () => {
    restoreEnvironment();
    await fixture.gateway.close();
  });

  describe('managed-identity endpoint (App Service, api-version 2019-08-01)', () => {
    const msi = (query: string, header: string | null = IDENTITY_HEADER): Promise<Response> =>
      fetch(`${fixture.gateway.url}/msi/token?${query}`, {
        headers: header === null ? {} : { 'X-IDENTITY-HEADER': header },
      });

    it('issues a token to a managed-identity bot in the App Service shape', async () => {
      const response = await msi(
        `api-version=2019-08-01&resource=${encodeURIComponent(RESOURCE)}&client_id=${MSI_BOT.appId}`,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, string>;
      expect(body).toEqual({
        access_token: expect.any(String),
        expires_on: expect.stringMatching(/^\d+$/),
        resource: RESOURCE,
        token_type: 'Bearer',
        client_id: MSI_BOT.appId,
      });
      expect(Number(body.expires_on) - Date.now() / 1000).toBeGreaterThan(3500);
      expect(decodeJwt(body.access_token ?? '').payload).toMatchObject({
        appid: MSI_BOT.appId,
        aud: RESOURCE,
      });
    });

    it('refuses a wrong or missing identity header (401), bots without managed identity, unknown resources and versions (400)', async () => {
      const good = `resource=${encodeURIComponent(RESOURCE)}&client_id=${MSI_BOT.appId}`;
      expect((await msi(`api-version=2019-08-01&${good}`, 'wrong-header-value-xxxxxxxx')).status).toBe(401);
      expect((await msi(`api-version=2019-08-01&${good}`, null)).status).toBe(401);
      const notMsi = await msi(
        `api-version=2019-08-01&resource=${encodeURIComponent(RESOURCE)}&client_id=${SECRET_BOT.appId}`,
      );
      expect(notMsi.status).toBe(400);
      expect(await notMsi.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.any(String),
      });
      expect(
        (
          await msi(
            `api-version=2019-08-01&resource=https%3A%2F%2Fvault.azure.net&client_id=${MSI_BOT.appId}`,
          )
        ).status,
      ).toBe(400);
      expect((await msi(`api-version=2017-09-01&${good}`)).status).toBe(400);
      expect((await msi(`api-version=2019-08-01&resource=${encodeURIComponent(RESOURCE)}`)).status).toBe(400);
    });

    it('a bot’s own identity header names the bot: client_id may be left out (system-assigned), or must be its own', async () => {
      const resource = `api-version=2019-08-01&resource=${encodeURIComponent(RESOURCE)}`;
      const own = await msi(resource, SYSTEM_MSI_BOT.identityHeader);
      expect(own.status).toBe(200);
      const body = (await own.json()) as Record<string, string>;
      expect(body.client_id).toBe(SYSTEM_MSI_BOT.appId);
      expect(decodeJwt(body.access_token ?? '').payload).toMatchObject({
        appid: SYSTEM_MSI_BOT.appId,
        aud: RESOURCE,
      });
      expect(
        (await msi(`${resource}&client_id=${SYSTEM_MSI_BOT.appId}`, SYSTEM_MSI_BOT.identityHeader)).status,
      ).toBe(200);
      // Its header does not reach another bot's identity, and the shared header still needs a client_id.
      const other = await msi(`${resource}&client_id=${MSI_BOT.appId}`, SYSTEM_MSI_BOT.identityHeader);
      expect(other.status).toBe(400);
      expect(await other.json()).toMatchObject({ error: 'invalid_request' });
      expect((await msi(resource, IDENTITY_HEADER)).status).toBe(400);
      expect((await msi(`${resource}&client_id=${SYSTEM_MSI_BOT.appId}`, IDENTITY_HEADER)).status).toBe(400);
    });

    it('serves @azure/identity’s ManagedIdentityCredential (IDENTITY_ENDPOINT/IDENTITY_HEADER)', async () => {
      const credential = new ManagedIdentityCredential({ clientId: MSI_BOT.appId });
      const token = await credential.getToken(SCOPE);
      expect(decodeJwt(token.token).payload).toMatchObject({ appid: MSI_BOT.appId, aud: RESOURCE });
      expect(token.expiresOnTimestamp).toBeGreaterThan(Date.now() + 3500_000);
    });

    it('serves botbuilder’s UserAssignedMsi credential factory', async () => {
      const factory = new ConfigurationServiceClientCredentialFactory({
        MicrosoftAppId: MSI_BOT.appId,
        MicrosoftAppType: 'UserAssignedMsi',
        MicrosoftAppTenantId: 'botframework.com',
        MicrosoftAppPassword: '',
      });
      const credentials = await factory.createCredentials(
        MSI_BOT.appId,
        RESOURCE,
        `${fixture.gateway.url}/botframework.com`,
        true,
      );
      const token = await (credentials as unknown as { getToken(): Promise<string> }).getToken();
      expect(decodeJwt(token).payload).toMatchObject({ appid: MSI_BOT.appId, aud: RESOURCE });
    });
  });

  describe('tokens the gateway sends to bots, validated by botbuilder itself', () => {
    const serviceUrl = 'http://127.0.0.1:8020/';
    let minter: BotTokenMinter;
    let authentication: ConfigurationBotFrameworkAuthentication;
    beforeAll(() => {
      minter = fixture.gateway.app.get(BotTokenMinter);
      // Exactly the bot-side configuration docs/protocols/bot-connector.md documents (recipe B), minus the credential part.
      authentication = new ConfigurationBotFrameworkAuthentication({
        MicrosoftAppId: SECRET_BOT.appId,
        MicrosoftAppPassword: SECRET_BOT.password,
        ToChannelFromBotLoginUrl: `${fixture.gateway.url}/botframework.com`,
        ToChannelFromBotOAuthScope: RESOURCE,
        ToBotFromChannelTokenIssuer: 'https://api.botframework.com',
        ToBotFromChannelOpenIdMetadataUrl: `${fixture.gateway.url}/v1/.well-known/openidconfiguration`,
        ToBotFromEmulatorOpenIdMetadataUrl: `${fixture.gateway.url}/v1/.well-known/openidconfiguration`,
        OAuthUrl: fixture.gateway.url,
        CallerId: 'urn:botframework:fieldops',
      });
    });

    const activity = (overrides: Partial<Activity> = {}): Activity =>
      ({
        type: 'message',
        id: 'a1',
        channelId: 'directline',
        serviceUrl,
        from: { id: 'user1' },
        recipient: { id: SECRET_BOT.appId },
        conversation: { id: 'c1' },
        text: 'hi',
        ...overrides,
      }) as Activity;

    it('publishes metadata and a JWKS whose keys carry the channel endorsements', async () => {
      const metadata = (await (
        await fetch(`${fixture.gateway.url}/v1/.well-known/openidconfiguration`)
      ).json()) as {
        jwks_uri: string;
        issuer: string;
      };
      expect(metadata).toMatchObject({
        issuer: 'https://api.botframework.com',
        jwks_uri: `${fixture.gateway.url}/v1/.well-known/keys`,
      });
      const jwks = (await (await fetch(metadata.jwks_uri)).json()) as {
        keys: Array<Record<string, unknown>>;
      };
      expect(jwks.keys).toEqual([
        expect.objectContaining({
          kty: 'RSA',
          kid: 'test-key-1',
          x5t: 'test-key-1',
          n: expect.any(String),
          e: 'AQAB',
          endorsements: ['directline', 'webchat'],
        }),
      ]);
    });

    it('mints exactly the claims botbuilder checks, and botbuilder accepts the token', async () => {
      const { token } = minter.mint(SECRET_BOT, serviceUrl);
      const { header, payload } = decodeJwt(token);
      expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1', x5t: 'test-key-1' });
      expect(Object.keys(payload).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'nbf', 'serviceurl']);
      const result = await authentication.authenticateRequest(activity(), `Bearer ${token}`);
      expect(result.claimsIdentity.isAuthenticated).toBe(true);
      expect(result.callerId).toBe('urn:botframework:fieldops');
      expect(result.audience).toBe(RESOURCE);
    });

    it('is refused by botbuilder for another bot, another serviceUrl or a channel the key does not endorse', async () => {
      const otherBot = minter.mint({ appId: 'some-other-bot' }, serviceUrl).token;
      await expect(authentication.authenticateRequest(activity(), `Bearer ${otherBot}`)).rejects.toThrow(
        /Invalid AppId/,
      );
      const otherServiceUrl = minter.mint(SECRET_BOT, 'http://elsewhere.example/').token;
      await expect(
        authentication.authenticateRequest(activity(), `Bearer ${otherServiceUrl}`),
      ).rejects.toThrow(/ServiceUrl/);
      const token = minter.mint(SECRET_BOT, serviceUrl).token;
      await expect(
        authentication.authenticateRequest(activity({ channelId: 'msteams' }), `Bearer ${token}`),
      ).rejects.toThrow(/endorsement/);
    });

    it('is refused by botbuilder when expired or forged', async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: 'https://api.botframework.com', aud: SECRET_BOT.appId, serviceurl: serviceUrl };
      const header = { alg: 'RS256' as const, kid: 'test-key-1', x5t: 'test-key-1' };
      const expired = jwt.sign(
        { ...claims, nbf: now - 7200, exp: now - 3600 },
        fixture.signingKey.privateKey,
        { header },
      );
      await expect(authentication.authenticateRequest(activity(), `Bearer ${expired}`)).rejects.toThrow(
        /expired/,
      );
      const forged = jwt.sign({ ...claims, nbf: now, exp: now + 3600 }, rsaKeyPair().privateKey, { header });
      await expect(authentication.authenticateRequest(activity(), `Bearer ${forged}`)).rejects.toThrow();
    });
  });
});
