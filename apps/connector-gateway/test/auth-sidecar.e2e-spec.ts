import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe).
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import type { AgentApplication, TurnContext, TurnState } from '@microsoft/agents-hosting';
import { waitFor } from '@fieldops/testing';
import { DirectLine } from 'botframework-directlinejs';
import { type RunningAuthSidecar, startAuthSidecar } from '../src';
import { loadAgentsSdk } from './support/bot-stacks';
import { decodeJwt, RESOURCE, SCOPE } from './support/gateway';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

const AGENT_IDENTITY_HEADER = 'sidecar-agent-identity-header-0001';

describe('the Entra auth sidecar: a stock Agents SDK agent with authType=EntraAuthSideCar', () => {
  const agentServer = new LateBoundServer();
  const agent: PlatformBot = {
    id: 'sidecar-agent',
    appId: 'sidecar-agent-app-id',
    secret: 'sidecar-agent-directline-secret-01',
    credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`],
    endpoint: agentServer,
  };
  const agentErrors: unknown[] = [];
  let platform: RunningPlatform;
  let sidecar: RunningAuthSidecar;
  let restoreEnvironment: () => void = () => undefined;

  beforeAll(async () => {
    await agentServer.start();
    platform = await startPlatform([agent]);
    // The sidecar beside the agent: loopback, the bot's own identity header, the connector's URL.
    sidecar = await startAuthSidecar({
      AUTH_SIDECAR_PORT: '0',
      AUTH_SIDECAR_CONNECTOR_URL: platform.connector.url,
      AUTH_SIDECAR_IDENTITY_HEADER: AGENT_IDENTITY_HEADER,
    });
    // The agent's whole outbound configuration: the SDK's sidecar auth type and SIDECAR_URL; no credential at all.
    const sdk = await loadAgentsSdk(
      platform.connector.url,
      { appId: agent.appId, identityHeader: 'unused-by-the-sidecar-auth-type' },
      {
        environment: {
          connections__serviceConnection__settings__authType: 'EntraAuthSideCar',
          SIDECAR_URL: sidecar.url,
          IDENTITY_ENDPOINT: '',
          IDENTITY_HEADER: '',
        },
      },
    );
    restoreEnvironment = sdk.restore;
    const application: AgentApplication<TurnState> = new sdk.hosting.AgentApplication<TurnState>();
    application.onActivity('message', async (context: TurnContext) => {
      try {
        await context.sendActivity(`sidecar echo: ${context.activity.text ?? ''}`);
      } catch (error) {
        agentErrors.push(error);
        throw error;
      }
    });
    await sdk.serve(agentServer, application);
  }, 60_000);

  afterAll(async () => {
    restoreEnvironment();
    await sidecar?.close();
    await platform?.close();
    await agentServer.stop();
  });

  it('the agent answers through the connector with the token its sidecar got', async () => {
    const client = new DirectLine({ secret: agent.secret, domain: `${platform.relay.url}/v3/directline` });
    const received: Array<{ from: { role?: string }; text?: string }> = [];
    const subscription = client.activity$.subscribe((activity) => received.push(activity));
    try {
      await new Promise<string>((resolve, reject) =>
        client
          .postActivity({ type: 'message', from: { id: 'user-1' }, text: 'hello' })
          .subscribe(resolve, reject),
      );
      const reply = await waitFor(
        () => received.find((activity) => activity.from.role === 'bot'),
        'the agent’s reply',
        20_000,
      );
      expect(reply.text).toBe('sidecar echo: hello');
      expect(agentErrors).toEqual([]);
    } finally {
      subscription.unsubscribe();
      client.end();
    }
  });

  it('GET /AuthorizationHeaderUnauthenticated/{service} with optionsOverride.Scopes → the bot’s bearer; /healthz', async () => {
    const health = await fetch(`${sidecar.url}/healthz`);
    expect(health.status).toBe(200);
    for (const scope of [SCOPE, RESOURCE]) {
      const answered = await fetch(
        `${sidecar.url}/AuthorizationHeaderUnauthenticated/default?optionsOverride.Scopes=${encodeURIComponent(scope)}&optionsOverride.RequestAppToken=true`,
      );
      expect(answered.status).toBe(200);
      const body = (await answered.json()) as { authorizationHeader: string };
      expect(body.authorizationHeader).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      const token = decodeJwt(body.authorizationHeader.slice('Bearer '.length)).payload;
      expect(token).toMatchObject({ appid: agent.appId, aud: RESOURCE });
    }
  });

  it('refuses what it cannot serve with problem details, never a 5xx for a caller’s mistake', async () => {
    const get = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${sidecar.url}${path}`, init);
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        body: (await response.json()) as { title: string; status: number },
      };
    };
    const token = '/AuthorizationHeaderUnauthenticated/default';
    const noScope = await get(token);
    expect(noScope).toMatchObject({ status: 400, type: 'application/problem+json', body: { status: 400 } });
    expect((await get(`${token}?optionsOverride.Scopes=a&optionsOverride.Scopes=b`)).status).toBe(400);
    // A user's or an agent identity's token: the sidecar holds the bot's app credential only.
    expect((await get(`${token}?optionsOverride.Scopes=${SCOPE}&AgentUsername=ann@example.com`)).status).toBe(
      400,
    );
    // A resource the connector does not serve: its refusal, passed on as a 400.
    expect(
      (
        await get(
          `${token}?optionsOverride.Scopes=${encodeURIComponent('https://graph.microsoft.com/.default')}`,
        )
      ).status,
    ).toBe(400);
    expect((await get('/AuthorizationHeader/default')).status).toBe(404);
    expect((await get(token, { method: 'POST' })).status).toBe(405);
  });

  it('a wrong credential is a 401 (not retried); the connector away is a 503', async () => {
    const wrong = await startAuthSidecar({
      AUTH_SIDECAR_PORT: '0',
      AUTH_SIDECAR_CONNECTOR_URL: platform.connector.url,
      AUTH_SIDECAR_IDENTITY_HEADER: 'not-the-agents-identity-header',
    });
    const away = await startAuthSidecar({
      AUTH_SIDECAR_PORT: '0',
      // A closed port on loopback: the sidecar's own listening port, after it is closed, would do; port 9 is discard.
      AUTH_SIDECAR_CONNECTOR_URL: 'http://127.0.0.1:9',
      AUTH_SIDECAR_IDENTITY_HEADER: AGENT_IDENTITY_HEADER,
    });
    try {
      const path = `/AuthorizationHeaderUnauthenticated/default?optionsOverride.Scopes=${encodeURIComponent(SCOPE)}`;
      expect((await fetch(`${wrong.url}${path}`)).status).toBe(401);
      expect((await fetch(`${away.url}${path}`)).status).toBe(503);
    } finally {
      await wrong.close();
      await away.close();
    }
  });

  it('listens on loopback only and names what is missing at start-up', async () => {
    await expect(
      startAuthSidecar({
        AUTH_SIDECAR_HOST: '0.0.0.0',
        AUTH_SIDECAR_CONNECTOR_URL: platform.connector.url,
        AUTH_SIDECAR_IDENTITY_HEADER: AGENT_IDENTITY_HEADER,
      }),
    ).rejects.toThrow(/AUTH_SIDECAR_HOST/);
    await expect(startAuthSidecar({ AUTH_SIDECAR_PORT: '0' })).rejects.toThrow(
      /AUTH_SIDECAR_IDENTITY_HEADER/,
    );
  });
});
