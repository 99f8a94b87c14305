import { type AuthProvider, UserTokenClient as AgentsUserTokenClient } from '@microsoft/agents-hosting';
import Redis from 'ioredis';
import jwt from 'jsonwebtoken';
import { requestToken, SCOPE } from './support/gateway';
import { rsaKeyPair } from './support/keys';
import {
  CookieClient,
  freePort,
  magicCodeOn,
  type RunningIdentityProvider,
  signInAt,
  startIdentityProvider,
  idTokenFrom,
} from '@fieldops/testing';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

const USER_TOKEN_KEY = 'user-token-key-for-tests-0123456789abcdef';
const provider = (token: string) =>
  ({ getAccessToken: () => Promise.resolve(token) }) as unknown as AuthProvider;

/** A ConversationReference as both SDKs put it in the sign-in state. */
const reference = (userId: string, conversationId = `conversation-of-${userId}`) => ({
  activityId: 'activity-1',
  user: { id: userId },
  bot: { id: 'signer-bot' },
  conversation: { id: conversationId },
  channelId: 'directline',
  serviceUrl: 'http://127.0.0.1:1/',
});

describe('signing in through the company’s OpenID provider (oidc-provider), over HTTP', () => {
  const endpoint = new LateBoundServer();
  // Where the provider sends an SSO client's own sign-in back (it answers anything).
  const ssoClient = new LateBoundServer();
  let idp: RunningIdentityProvider;
  let platform: RunningPlatform;
  let gateway: string;
  let client: AgentsUserTokenClient;
  let otherClient: AgentsUserTokenClient;
  const signer = (issuer: string): PlatformBot => ({
    id: 'signer-bot',
    appId: 'signer-bot-app-id',
    secret: 'signer-bot-directline-secret-01',
    credentials: [
      'appPassword: signer-bot-password-1',
      'oauthConnections:',
      '  - name: company',
      `    issuer: ${issuer}`,
      '    clientId: fieldops-signer',
      '    clientSecret: signer-oidc-client-secret',
      '    displayName: Company sign-in',
      '  - name: short-lived',
      `    issuer: ${issuer}`,
      '    clientId: fieldops-short',
      '    scopes: [openid, offline_access]',
    ],
    endpoint,
  });
  const other: PlatformBot = {
    id: 'other-bot',
    appId: 'other-bot-app-id',
    secret: 'other-bot-directline-secret-001',
    credentials: [
      'appPassword: other-bot-password-1',
      'oauthConnections:',
      '  - name: company',
      '    issuer: http://127.0.0.1:1',
      '    clientId: other',
    ],
    endpoint,
  };

  beforeAll(async () => {
    await Promise.all([endpoint.start(), ssoClient.start()]);
    ssoClient.handler = (_request, response) => response.writeHead(200).end('signed in');
    // The provider's address goes in the platform configuration, the connector's callback in the provider's.
    const idpPort = await freePort();
    platform = await startPlatform([signer(`http://127.0.0.1:${idpPort}`), other], {
      CONNECTOR_USER_TOKEN_KEY: USER_TOKEN_KEY,
    });
    gateway = platform.connector.url;
    idp = await startIdentityProvider({
      port: idpPort,
      redirectUris: [`${gateway}/api/oauth/callback`, `${ssoClient.url}/signed-in`],
      clients: [
        { id: 'fieldops-signer', secret: 'signer-oidc-client-secret' },
        // A public client whose access tokens expire within the refresh margin: every read refreshes.
        { id: 'fieldops-short', accessTokenSeconds: 30 },
      ],
    });
    const tokenOf = async (appId: string, password: string) =>
      String(
        (
          await requestToken(platform.connector, {
            grant_type: 'client_credentials',
            client_id: appId,
            client_secret: password,
            scope: SCOPE,
          })
        ).body.access_token,
      );
    client = await AgentsUserTokenClient.createClientWithScope(
      gateway,
      provider(await tokenOf('signer-bot-app-id', 'signer-bot-password-1')),
      SCOPE,
    );
    otherClient = await AgentsUserTokenClient.createClientWithScope(
      gateway,
      provider(await tokenOf(other.appId, 'other-bot-password-1')),
      SCOPE,
    );
  });

  afterAll(async () => {
    await idp?.stop();
    await platform?.close();
    await Promise.all([endpoint.stop(), ssoClient.stop()]);
  });

  it('sign-in link → provider login and consent → magic code → GetToken with the code; then the token; SignOut', async () => {
    const { signInLink } = await client.getSignInResource('signer-bot-app-id', 'company', reference('alice'));
    const browser = new CookieClient();
    const page = await signInAt(signInLink, 'alice', browser);
    expect(page.status).toBe(200);
    expect(page.url).toMatch(new RegExp(`^${gateway}/api/oauth/callback\\?`));
    const code = magicCodeOn(page);
    // Before the code is typed there is no token.
    await expect(client.getUserToken('company', 'directline', 'alice')).resolves.toEqual({
      token: undefined,
    });
    const redeemed = await client.getUserToken('company', 'directline', 'alice', code);
    expect(redeemed).toMatchObject({
      channelId: 'directline',
      connectionName: 'company',
      token: expect.any(String),
    });
    expect((redeemed as { expiration?: string }).expiration).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The token is the provider's: its userinfo endpoint names alice.
    const userinfo = await fetch(`${idp.issuer}/me`, {
      headers: { Authorization: `Bearer ${redeemed.token}` },
    });
    expect(await userinfo.json()).toMatchObject({ sub: 'alice' });
    await expect(client.getUserToken('company', 'directline', 'alice')).resolves.toMatchObject({
      token: redeemed.token,
    });
    await expect(client.getTokenStatus('alice', 'directline', 'company')).resolves.toEqual([
      {
        channelId: 'directline',
        connectionName: 'company',
        hasToken: true,
        serviceProviderDisplayName: 'Company sign-in',
      },
    ]);
    // The magic code works once.
    await client.signOut('alice', 'company', 'directline');
    await expect(client.getUserToken('company', 'directline', 'alice', code)).resolves.toEqual({
      token: undefined,
    });
    await expect(client.getUserToken('company', 'directline', 'alice')).resolves.toEqual({
      token: undefined,
    });
  });

  it('refuses a replayed or forged state, and a code typed by another user or for another bot', async () => {
    const { signInLink } = await client.getSignInResource('signer-bot-app-id', 'company', reference('bob'));
    const browser = new CookieClient();
    const code = magicCodeOn(await signInAt(signInLink, 'bob', browser));
    const callback = browser.visited.find((url) => url.includes('/api/oauth/callback'));
    expect(callback).toBeDefined();
    // Replayed: the state was used.
    const replay = await fetch(callback!);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('expired or was already used');
    // Forged: another id, or the signature changed.
    const state = new URL(callback!).searchParams.get('state') ?? '';
    const forgedUrl = new URL(callback!);
    forgedUrl.searchParams.set('state', `${state.split('.')[0]}x.${state.split('.')[1]}`);
    expect((await fetch(forgedUrl)).status).toBe(400);
    const forgedLink = new URL(signInLink);
    forgedLink.searchParams.set('signin', `${state.split('.')[0]}.AAAA`);
    expect((await fetch(forgedLink, { redirect: 'manual' })).status).toBe(400);
    // The link itself is spent too.
    expect((await fetch(signInLink, { redirect: 'manual' })).status).toBe(400);
    // The code is bound to bob in this bot's connection: mallory and the other bot get nothing, and bob still can.
    await expect(client.getUserToken('company', 'directline', 'mallory', code)).resolves.toEqual({
      token: undefined,
    });
    await expect(otherClient.getUserToken('company', 'directline', 'bob', code)).resolves.toEqual({
      token: undefined,
    });
    await expect(client.getUserToken('company', 'directline', 'bob', code)).resolves.toMatchObject({
      token: expect.any(String),
    });
  });

  it('discards a magic code after three wrong attempts', async () => {
    const { signInLink } = await client.getSignInResource('signer-bot-app-id', 'company', reference('carol'));
    const code = magicCodeOn(await signInAt(signInLink, 'carol'));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 3; attempt += 1)
      await expect(client.getUserToken('company', 'directline', 'carol', wrong)).resolves.toEqual({
        token: undefined,
      });
    await expect(client.getUserToken('company', 'directline', 'carol', code)).resolves.toEqual({
      token: undefined,
    });
  });

  it('refreshes an expiring token with the refresh token (a public client, PKCE only)', async () => {
    const { signInLink } = await client.getSignInResource(
      'signer-bot-app-id',
      'short-lived',
      reference('dave'),
    );
    const code = magicCodeOn(await signInAt(signInLink, 'dave'));
    const first = await client.getUserToken('short-lived', 'directline', 'dave', code);
    expect(first.token).toEqual(expect.any(String));
    const second = await client.getUserToken('short-lived', 'directline', 'dave');
    expect(second.token).toEqual(expect.any(String));
    expect(second.token).not.toBe(first.token);
    const userinfo = await fetch(`${idp.issuer}/me`, {
      headers: { Authorization: `Bearer ${second.token}` },
    });
    expect(await userinfo.json()).toMatchObject({ sub: 'dave' });
  });

  it('keeps tokens encrypted at rest (Redis when REDIS_URL is set)', async () => {
    const { signInLink } = await client.getSignInResource('signer-bot-app-id', 'company', reference('erin'));
    const code = magicCodeOn(await signInAt(signInLink, 'erin'));
    const { token } = await client.getUserToken('company', 'directline', 'erin', code);
    if (!process.env.REDIS_URL) return;
    const redis = new Redis(process.env.REDIS_URL);
    try {
      const prefix = platform.connector.environment.STORE_KEY_PREFIX;
      const keys = await redis.keys(`${prefix}usertoken:*`);
      expect(keys.length).toBeGreaterThan(0);
      const values = await Promise.all(keys.map((key) => redis.get(key)));
      for (const [index, value] of values.entries()) {
        expect(value).not.toContain(token);
        expect(keys[index]).not.toContain('erin');
      }
    } finally {
      redis.disconnect();
    }
  });

  it('exchange (SSO): a token of the provider for the connection’s client becomes the user’s token; others are 404', async () => {
    const idToken = await idTokenFrom(
      idp.issuer,
      { id: 'fieldops-signer', secret: 'signer-oidc-client-secret' },
      `${ssoClient.url}/signed-in`,
      'frank',
    );
    const exchanged = await client.exchangeTokenAsync('frank', 'company', 'directline', {
      uri: 'api://fieldops-signer',
      token: idToken,
    });
    expect(exchanged).toMatchObject({ channelId: 'directline', connectionName: 'company', token: idToken });
    await expect(client.getUserToken('company', 'directline', 'frank')).resolves.toMatchObject({
      token: idToken,
    });
    const signerToken = String(
      (
        await requestToken(platform.connector, {
          grant_type: 'client_credentials',
          client_id: 'signer-bot-app-id',
          client_secret: 'signer-bot-password-1',
          scope: SCOPE,
        })
      ).body.access_token,
    );
    const exchange = (connectionName: string, token: string) =>
      fetch(
        `${gateway}/api/usertoken/exchange?userId=grace&connectionName=${connectionName}&channelId=directline`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${signerToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ token }),
        },
      );
    // The status the SDKs map a TokenResponse from (botbuilder reads only a 200's body).
    const accepted = await exchange('company', idToken);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ connectionName: 'company', token: idToken });
    await client.signOut('grace', 'company', 'directline');
    const [header, payload] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      // The signature changed.
      ['company', `${header}.${payload}.${Buffer.from('not the provider').toString('base64url')}`],
      // The claims of grace, signed by someone else's key with the provider's key id.
      [
        'company',
        jwt.sign({ ...claims, sub: 'grace', iat: now, exp: now + 600 }, rsaKeyPair().privateKey, {
          algorithm: 'RS256',
          keyid: String(
            (JSON.parse(Buffer.from(header ?? '', 'base64url').toString()) as { kid?: string }).kid,
          ),
        }),
      ],
      // Issued for another client (the audience is fieldops-signer, the connection's client is fieldops-short).
      ['short-lived', idToken],
      // Not a JWT at all.
      ['company', 'opaque-access-token'],
    ] as const;
    for (const [connectionName, token] of refused) {
      const response = await exchange(connectionName, token);
      expect([connectionName, response.status, await response.text()]).toEqual([connectionName, 404, '']);
    }
    await expect(client.getUserToken('company', 'directline', 'grace')).resolves.toEqual({
      token: undefined,
    });
  });
});
