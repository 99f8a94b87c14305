import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivityBus, type ActivityBus } from '@fieldops/bus';
import { createConversationStore, type ConversationStore } from '@fieldops/conversation-store';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { startConnectorGateway } from '../../src';
import { IDENTITY_HEADER, requestToken, type RunningGateway, SCOPE, testEnvironment } from './gateway';
import { rsaKeyPair } from './keys';

export const INTERNAL_KEY = 'internal-key-for-tests-0123456789abcdef';
export type RunningRelay = Awaited<ReturnType<typeof startRelayGateway>>;

/** An HTTP server on a random loopback port whose handler is set later (bots need the gateway's URL first). */
export class LateBoundServer {
  handler: RequestListener = (_request, response) => response.writeHead(503).end();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handler(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

export interface PlatformBot {
  id: string;
  appId: string;
  secret: string;
  /** YAML lines of the connector credentials. */
  credentials: string[];
  endpoint: LateBoundServer;
}

export interface RunningPlatform {
  connector: RunningGateway;
  /** The first relay instance (`relays[0]`). */
  relay: RunningRelay;
  /** Every relay instance, each with its own Redis clients on the same store and bus. */
  relays: RunningRelay[];
  close(): Promise<void>;
}

/**
 * relay-gateway and connector-gateway from one platform configuration file (bots' credentials included),
 * sharing a store and bus: in-process ones passed to both, or each its own Redis clients when REDIS_URL is set
 * (as separate instances would). The relay delivers through the connector. `extra` is the connector's environment
 * only; `redisUrl` (default REDIS_URL) is both gateways'. `relayCount` relay instances (more than one needs Redis),
 * as a scaled-out deployment runs them.
 */
export async function startPlatform(
  bots: PlatformBot[],
  extra: NodeJS.ProcessEnv = {},
  redisUrl: string | undefined = process.env.REDIS_URL,
  relayCount = 1,
): Promise<RunningPlatform> {
  if (relayCount > 1 && !redisUrl)
    throw new Error('relay instances share a store and bus only on Redis (REDIS_URL)');
  const directory = mkdtempSync(join(tmpdir(), 'connector-platform-'));
  const configPath = join(directory, 'platform.yaml');
  writeFileSync(
    configPath,
    [
      'bots:',
      ...bots.flatMap((bot) => [
        `  - id: ${bot.id}`,
        `    appId: ${bot.appId}`,
        `    messagingEndpoint: ${bot.endpoint.url}/api/messages`,
        `    directLine: { secrets: [${bot.secret}] }`,
        ...bot.credentials.map((line) => `    ${line}`),
      ]),
    ].join('\n'),
  );
  const runId = randomUUID();
  const shared: NodeJS.ProcessEnv = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl,
    BUS_CHANNEL_PREFIX: `fieldops:test:${runId}:bus:`,
    STORE_KEY_PREFIX: `fieldops:test:${runId}:store:`,
    PLATFORM_CONFIG: configPath,
  };
  let store: ConversationStore | undefined;
  let bus: ActivityBus | undefined;
  if (!redisUrl) {
    store = createConversationStore();
    bus = createActivityBus({});
  }
  const connector = await startConnectorGateway({
    environment: {
      ...testEnvironment(rsaKeyPair()),
      ...shared,
      CONNECTOR_IDENTITY_HEADER: IDENTITY_HEADER,
      CONNECTOR_INTERNAL_KEY: INTERNAL_KEY,
      ...extra,
    },
    store,
    bus,
  });
  const relays: RunningRelay[] = [];
  for (let index = 0; index < relayCount; index += 1)
    relays.push(
      await startRelayGateway({
        environment: {
          ...shared,
          RELAY_GATEWAY_PORT: '0',
          RELAY_BOT_SERVICE_URL: `${connector.url}/`,
          RELAY_CONNECTOR_URL: connector.url,
          RELAY_CONNECTOR_KEY: INTERNAL_KEY,
        },
        store,
        bus,
      }),
    );
  return {
    connector,
    relay: relays[0],
    relays,
    close: async () => {
      for (const relay of relays) await relay.close();
      await connector.close();
      await bus?.close();
      await store?.close();
    },
  };
}

/** A platform with one bot that holds a connector token and has a conversation started through the relay. */
export interface BotConversation {
  platform: RunningPlatform;
  bot: PlatformBot;
  endpoint: LateBoundServer;
  /** The bot's connector access token (client credentials with its app password). */
  token: string;
  conversationId: string;
  close(): Promise<void>;
}

/** `name` names the bot (`<name>-bot`), its app id, Direct Line secret and app password. */
export async function startBotConversation(name: string): Promise<BotConversation> {
  const endpoint = new LateBoundServer();
  const password = `${name}-bot-password-1`;
  const bot: PlatformBot = {
    id: `${name}-bot`,
    appId: `${name}-bot-app-id`,
    secret: `${name}-bot-directline-secret-0001`,
    credentials: [`appPassword: ${password}`],
    endpoint,
  };
  await endpoint.start();
  endpoint.handler = (_request, response) => response.writeHead(200).end();
  const platform = await startPlatform([bot]);
  const issued = await requestToken(platform.connector, {
    grant_type: 'client_credentials',
    client_id: bot.appId,
    client_secret: password,
    scope: SCOPE,
  });
  const started = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bot.secret}` },
  });
  const { conversationId } = (await started.json()) as { conversationId: string };
  return {
    platform,
    bot,
    endpoint,
    token: String(issued.body.access_token),
    conversationId,
    close: async () => {
      await platform.close();
      await endpoint.stop();
    },
  };
}
