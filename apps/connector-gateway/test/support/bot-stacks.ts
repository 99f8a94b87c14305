import { ConfidentialClientApplication } from '@azure/msal-node';
import type { AgentApplication, TurnState } from '@microsoft/agents-hosting';
import { withProcessEnvironment } from '@fieldops/testing';
import { CloudAdapter, ConfigurationBotFrameworkAuthentication, type TurnContext } from 'botbuilder';
import { MsalServiceClientCredentialsFactory } from 'botframework-connector';
import express from 'express';
import { RESOURCE } from './gateway';
import { type LateBoundServer } from './platform';

/** The stock bots of the e2e suites, each set up as docs/protocols/bot-connector.md tells its users. */

/** botbuilder's channel settings toward a gateway (ConfigurationBotFrameworkAuthentication's keys). */
export function classicChannelSettings(gateway: string): Record<string, string> {
  return {
    ToChannelFromBotLoginUrl: `${gateway}/botframework.com`,
    ToChannelFromBotOAuthScope: RESOURCE,
    ToBotFromChannelTokenIssuer: 'https://api.botframework.com',
    ToBotFromChannelOpenIdMetadataUrl: `${gateway}/v1/.well-known/openidconfiguration`,
    ToBotFromEmulatorOpenIdMetadataUrl: `${gateway}/v1/.well-known/openidconfiguration`,
    OAuthUrl: gateway,
    CallerId: 'urn:botframework:fieldops',
  };
}

/** Recipe C: botbuilder with an app password, msal reading the gateway's authority metadata (no cloud look-up). */
export async function msalBotAuthentication(
  gateway: string,
  appId: string,
  password: string,
): Promise<ConfigurationBotFrameworkAuthentication> {
  const authorityMetadata = await (
    await fetch(`${gateway}/botframework.com/v2.0/.well-known/openid-configuration`)
  ).text();
  const msal = new ConfidentialClientApplication({
    auth: {
      clientId: appId,
      clientSecret: password,
      authority: 'https://connector.gateway.invalid/botframework.com',
      knownAuthorities: ['connector.gateway.invalid'],
      authorityMetadata,
    },
  });
  return new ConfigurationBotFrameworkAuthentication(
    { MicrosoftAppId: appId, MicrosoftAppPassword: password, ...classicChannelSettings(gateway) },
    new MsalServiceClientCredentialsFactory(appId, msal),
  );
}

/** botbuilder's CloudAdapter behind express at `server`, as a generated bot is; `logic` runs each turn. */
export function serveClassicBot(
  server: LateBoundServer,
  adapter: CloudAdapter,
  logic: (context: TurnContext) => Promise<void>,
  seenAuthorization: Array<string | undefined> = [],
): void {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/api/messages', (request, response) => {
    seenAuthorization.push(request.get('authorization'));
    void adapter.process(request, response, logic);
  });
  server.handler = app;
}

/** A botbuilder bot with an app password (recipe C) serving `logic` at `server`; its adapter. */
export async function startMsalBot(
  server: LateBoundServer,
  gateway: string,
  bot: { appId: string; password: string },
  logic: (context: TurnContext) => Promise<void>,
  seenAuthorization?: Array<string | undefined>,
): Promise<CloudAdapter> {
  const adapter = new CloudAdapter(await msalBotAuthentication(gateway, bot.appId, bot.password));
  serveClassicBot(server, adapter, logic, seenAuthorization);
  return adapter;
}

type AgentsHosting = typeof import('@microsoft/agents-hosting');

export interface AgentsSdk {
  hosting: AgentsHosting;
  /** Serves `application` at `server` with the SDK's own express handler (its JWT middleware included). */
  serve(
    server: LateBoundServer,
    application: AgentApplication<TurnState>,
    seenAuthorization?: Array<string | undefined>,
  ): Promise<void>;
  /** Puts process.env back. */
  restore(): void;
}

/**
 * Loads the Agents SDK configured only by its own environment variables ("Agents SDK bot, no cloud"):
 * authType SystemManagedIdentity with the agent's own identity header, the gateway as authority and, with
 * `tokenService`, as TOKEN_SERVICE_ENDPOINT. `environment` adds or overrides variables.
 */
export async function loadAgentsSdk(
  gateway: string,
  agent: { appId: string; identityHeader: string },
  {
    tokenService = false,
    environment = {},
  }: { tokenService?: boolean; environment?: Record<string, string> } = {},
): Promise<AgentsSdk> {
  const restore = withProcessEnvironment({
    connections__serviceConnection__settings__clientId: agent.appId,
    connections__serviceConnection__settings__tenantId: 'botframework.com',
    connections__serviceConnection__settings__authorityEndpoint: gateway,
    connections__serviceConnection__settings__authType: 'SystemManagedIdentity',
    connections__serviceConnection__settings__validateIssuer: 'true',
    connectionsMap__0__serviceUrl: '*',
    connectionsMap__0__connection: 'serviceConnection',
    IDENTITY_ENDPOINT: `${gateway}/msi/token`,
    IDENTITY_HEADER: agent.identityHeader,
    ...(tokenService && { TOKEN_SERVICE_ENDPOINT: gateway }),
    ...environment,
  });
  const hosting = await import('@microsoft/agents-hosting');
  return {
    hosting,
    restore,
    serve: async (server, application, seenAuthorization = []) => {
      const { createAgentRequestHandler } = await import('@microsoft/agents-hosting-express');
      const handler = createAgentRequestHandler(application);
      const app = express();
      app.use(express.json({ limit: '1mb' }));
      app.post('/api/messages', (request, response) => {
        seenAuthorization.push(request.get('authorization'));
        void handler(request, response);
      });
      server.handler = app;
    },
  };
}
