import { type AuthProvider, UserTokenClient as AgentsUserTokenClient } from '@microsoft/agents-hosting';
import { type Activity } from 'botbuilder';
import { ClaimsIdentity, type UserTokenClient } from 'botframework-connector';
import { msalBotAuthentication } from './support/bot-stacks';
import { requestToken, SCOPE } from './support/gateway';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

const USER_TOKEN_KEY = 'user-token-key-for-tests-0123456789abcdef';

/** The Agents SDK's AuthProvider, answering the bot's connector token. */
const provider = (token: string) =>
  ({ getAccessToken: () => Promise.resolve(token) }) as unknown as AuthProvider;

describe('the user-token service API, as botbuilder and the Agents SDK call it', () => {
  const endpoint = new LateBoundServer();
  const signer: PlatformBot = {
    id: 'signer-bot',
    appId: 'signer-bot-app-id',
    secret: 'signer-bot-directline-secret-01',
    credentials: [
      'appPassword: signer-bot-password-1',
      'oauthConnections:',
      '  - name: company',
      '    issuer: http://127.0.0.1:1/idp',
      '    clientId: fieldops-signer',
      '    displayName: Company sign-in',
    ],
    endpoint,
  };
  const other: PlatformBot = {
    id: 'other-bot',
    appId: 'other-bot-app-id',
    secret: 'other-bot-directline-secret-001',
    credentials: ['appPassword: other-bot-password-1'],
    endpoint,
  };
  let platform: RunningPlatform;
  let gateway: string;
  let signerToken: string;
  let otherToken: string;
  let classic: UserTokenClient;
  let agents: AgentsUserTokenClient;

  const activity = {
    type: 'message',
    id: 'activity-1',
    channelId: 'directline',
    serviceUrl: 'http://127.0.0.1:1/',
    conversation: { id: 'conversation-1' },
    from: { id: 'user-1' },
    recipient: { id: 'signer-bot' },
  } as Activity;

  beforeAll(async () => {
    await endpoint.start();
    platform = await startPlatform([signer, other], { CONNECTOR_USER_TOKEN_KEY: USER_TOKEN_KEY });
    gateway = platform.connector.url;
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
    signerToken = await tokenOf(signer.appId, 'signer-bot-password-1');
    otherToken = await tokenOf(other.appId, 'other-bot-password-1');
    // The OAuthApiEndpoint / TOKEN_SERVICE_ENDPOINT of each SDK is the connector's own address. botbuilder's client
    // is the one its CloudAdapter makes (recipe C of docs/protocols/bot-connector.md, OAuthUrl = the connector).
    const authentication = await msalBotAuthentication(gateway, signer.appId, 'signer-bot-password-1');
    classic = await authentication.createUserTokenClient(
      new ClaimsIdentity([{ type: 'aud', value: signer.appId }], true),
    );
    agents = await AgentsUserTokenClient.createClientWithScope(gateway, provider(signerToken), SCOPE);
  });

  afterAll(async () => {
    await platform.close();
    await endpoint.stop();
  });

  it('GetToken without a token: 404 with an empty body, which both SDKs read as "no token"', async () => {
    const response = await fetch(
      `${gateway}/api/usertoken/GetToken?userId=user-1&connectionName=company&channelId=directline`,
      { headers: { Authorization: `Bearer ${signerToken}` } },
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
    await expect(classic.getUserToken('user-1', 'company', 'directline', undefined as never)).resolves.toBe(
      undefined,
    );
    await expect(agents.getUserToken('company', 'directline', 'user-1')).resolves.toEqual({
      token: undefined,
    });
    // A wrong magic code is no token either.
    await expect(agents.getUserToken('company', 'directline', 'user-1', '123456')).resolves.toEqual({
      token: undefined,
    });
  });

  it('GetTokenStatus lists the bot’s connections; SignOut answers 200', async () => {
    const expected = [
      {
        channelId: 'directline',
        connectionName: 'company',
        hasToken: false,
        serviceProviderDisplayName: 'Company sign-in',
      },
    ];
    await expect(classic.getTokenStatus('user-1', 'directline', undefined as never)).resolves.toEqual(
      expected,
    );
    await expect(agents.getTokenStatus('user-1', 'directline')).resolves.toEqual(expected);
    await expect(agents.getTokenStatus('user-1', 'directline', 'elsewhere')).resolves.toEqual([]);
    await expect(classic.signOutUser('user-1', 'company', 'directline')).resolves.toBeUndefined();
    await expect(agents.signOut('user-1', 'company', 'directline')).resolves.toBeUndefined();
  });

  it('GetSignInResource / GetTokenOrSignInResource / GetSignInUrl give a sign-in link on the connector', async () => {
    const link = new RegExp(`^${gateway}/api/oauth/signin\\?signin=[A-Za-z0-9_.%-]+$`);
    const resource = await classic.getSignInResource('company', activity, '');
    expect(resource.signInLink).toMatch(link);
    const reference = {
      activityId: activity.id,
      user: activity.from,
      agent: activity.recipient,
      conversation: activity.conversation,
      channelId: activity.channelId,
      serviceUrl: activity.serviceUrl,
    };
    const fromAgents = await agents.getSignInResource(signer.appId, 'company', reference);
    expect(fromAgents.signInLink).toMatch(link);
    expect(fromAgents.signInLink).not.toBe(resource.signInLink);
    const either = await agents.getTokenOrSignInResource(
      'user-1',
      'company',
      'directline',
      reference,
      undefined as never,
      '',
    );
    expect(either.tokenResponse).toBeUndefined();
    expect(either.signInResource.signInLink).toMatch(link);
    const state = Buffer.from(
      JSON.stringify({ connectionName: 'company', conversation: reference }),
    ).toString('base64');
    const url = await fetch(`${gateway}/api/botsignin/GetSignInUrl?state=${encodeURIComponent(state)}`, {
      headers: { Authorization: `Bearer ${signerToken}` },
    });
    expect(url.status).toBe(200);
    expect(await url.text()).toMatch(link);
  });

  it('GetAadTokens answers an empty map and exchange answers 404 (the provider, unreachable here, vouches for no token)', async () => {
    await expect(
      classic.getAadTokens('user-1', 'company', ['https://graph.example.com'], 'directline'),
    ).resolves.toEqual({});
    await expect(
      classic.exchangeToken('user-1', 'company', 'directline', { token: 'some-token' }),
    ).resolves.toBeUndefined();
  });

  it('refuses calls without the bot’s connector token, for another bot’s connection, or naming another bot', async () => {
    const path = '/api/usertoken/GetTokenStatus?userId=user-1&channelId=directline';
    expect((await fetch(`${gateway}${path}`)).status).toBe(401);
    expect((await fetch(`${gateway}${path}`, { headers: { Authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
    // The other bot has no connections: its users' status is empty, and it cannot use the signer's connection.
    const otherStatus = await fetch(`${gateway}${path}`, {
      headers: { Authorization: `Bearer ${otherToken}` },
    });
    expect(await otherStatus.json()).toEqual([]);
    const otherGet = await fetch(
      `${gateway}/api/usertoken/GetToken?userId=user-1&connectionName=company&channelId=directline`,
      { headers: { Authorization: `Bearer ${otherToken}` } },
    );
    expect(otherGet.status).toBe(400);
    expect(await otherGet.json()).toEqual({
      error: { code: 'BadArgument', message: "The bot has no OAuth connection named 'company'." },
    });
    const foreign = Buffer.from(
      JSON.stringify({
        connectionName: 'company',
        msAppId: other.appId,
        conversation: { channelId: 'directline', conversation: { id: 'c' }, user: { id: 'u' } },
      }),
    ).toString('base64');
    const refused = await fetch(
      `${gateway}/api/botsignin/GetSignInResource?state=${encodeURIComponent(foreign)}`,
      { headers: { Authorization: `Bearer ${signerToken}` } },
    );
    expect(refused.status).toBe(403);
    const missing = await fetch(`${gateway}/api/usertoken/GetToken?userId=user-1&channelId=directline`, {
      headers: { Authorization: `Bearer ${signerToken}` },
    });
    expect(missing.status).toBe(400);
    const garbage = await fetch(`${gateway}/api/botsignin/GetSignInResource?state=%%%`, {
      headers: { Authorization: `Bearer ${signerToken}` },
    });
    expect(garbage.status).toBe(400);
  });
});
