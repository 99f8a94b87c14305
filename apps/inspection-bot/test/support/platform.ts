import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivityBus } from '@fieldops/bus';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { type ConversationStore, createConversationStore } from '@fieldops/conversation-store';
import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { freePort, type Logger, type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { type AccountMaker } from '@fieldops/testing/chat-page';
import { InspectionApiClient, seedDemoInspectionData, startInspectionBot } from '../../src';

export const BOT = {
  id: 'inspection-bot',
  appId: 'inspection-bot-test-app-id',
  password: 'inspection-bot-test-password-1',
  directLineSecret: 'inspection-bot-test-directline-secret',
};
/** The secret inspection-api signs the notifications it hands the bot with (both sides' configuration). */
export const NOTIFICATIONS_SECRET = `whsec_${Buffer.alloc(32, 26).toString('base64')}`;
export const SERVICE_ACCOUNT = { username: 'inspection-bot', password: 'service-account-password-for-tests' };
/** The inspector who signs in on the chat page (an inspection-api account with the inspector role). */
export const INSPECTOR = { username: 'alice.inspector', password: 'alice-inspector-password-1' };
const INTERNAL_KEY = 'internal-key-for-inspection-bot-tests-0123456789';
/** relay-gateway's configured token signing key (`relay.tokenSigningKeys`), so tokens outlive a relay restart. */
export const RELAY_TOKEN_SIGNING_KEY = 'relay-token-signing-key-of-the-test-platform-0123';
/** The AI resource the bot translates with (connector-gateway's phrasebook provider serves the bot's phrasebook). */
export const TRANSLATOR_KEYS = [
  'test-translator-key-00000000001',
  'test-translator-key-00000000002',
] as const;
const BOT_PHRASEBOOK = join(__dirname, '..', '..', 'phrasebook.yaml');

export { freePort };

export interface RunningInspectionPlatform {
  api: RunningService;
  connector: RunningService;
  relay: RunningService;
  bot: RunningService;
  /** The conversation store the gateways share (for assertions on what a conversation holds). */
  store: ConversationStore;
  /** inspection-api as the bot's service account sees it (for assertions). */
  client: InspectionApiClient;
  /** The inspector's inspection-api user id. */
  inspectorId: number;
  /** inspection-api and the bot's service account (a supervisor), for a test's own accounts (`createAccount`). */
  accounts: AccountMaker;
  /** Creates another inspection-api account (the bot's service account is a supervisor). */
  createAccount(username: string, password: string): Promise<number>;
  /**
   * Deletes every check record through inspection-api (`DELETE /api/records/{id}/`): a walk then starts with nothing
   * answered in the current period (a check shows the period's answers, whichever conversation made them).
   */
  clearRecords(): Promise<void>;
  /**
   * Starts another instance of the bot with the same environment and these changes (another `INSPECTION_BOT_PORT`),
   * closed with the platform: several bot instances of one registration, as behind a load balancer.
   */
  startBotLike(changes: Record<string, string>): Promise<RunningService>;
  /** Stops the bot and starts it again with the same environment on the same port (`bot` is the new one). */
  restartBot(): Promise<RunningService>;
  /**
   * Stops relay-gateway (a graceful stop: its streams closed, new connections refused) and returns a function
   * that starts it again with the same environment on the same port (`relay` is the new one). Conversations,
   * uploads and tokens outlive it: the store and bus are shared, and tokens are signed with the configured keys.
   */
  stopRelay(): Promise<() => Promise<RunningService>>;
  close(): Promise<void>;
}

/**
 * The real platform on loopback: inspection-api on a scratch PostgreSQL database (demo data seeded),
 * connector-gateway and relay-gateway from one platform configuration (the bot registered with an app id and
 * password), sharing an in-process bus and store, and the inspection bot in the password mode.
 */
export async function startInspectionPlatform(
  options: {
    botLogger?: Logger;
    /** More of inspection-api's environment, knowing the bot's port (a provider's return origin). */
    apiEnvironment?: (ports: { botPort: number }) => Record<string, string>;
    /** More of the bot's environment. */
    botEnvironment?: Record<string, string>;
    /** Where the platform delivers the bot's activities (default: the bot's own `/api/messages`). */
    messagingEndpoint?: (ports: { botPort: number }) => string;
  } = {},
): Promise<RunningInspectionPlatform> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is set by the Jest global setup');
  const database = await createScratchDatabase(adminUrl, 'inspection_bot');
  const directory = mkdtempSync(join(tmpdir(), 'inspection-bot-platform-'));
  const botPort = await freePort();
  const configPath = join(directory, 'platform.yaml');
  writeFileSync(
    configPath,
    [
      'bots:',
      `  - id: ${BOT.id}`,
      `    appId: ${BOT.appId}`,
      '    name: Inspection bot',
      `    messagingEndpoint: ${options.messagingEndpoint?.({ botPort }) ?? `http://127.0.0.1:${botPort}/api/messages`}`,
      `    appPassword: ${BOT.password}`,
      '    directLine:',
      `      secrets: [${BOT.directLineSecret}]`,
      // As deployed: enhanced authentication, the chat page's origin trusted.
      '      enhancedAuthentication: true',
      `      trustedOrigins: [http://127.0.0.1:${botPort}]`,
      // As deployed: configured signing keys, so tokens outlive a restart of the relay.
      'relay:',
      `  tokenSigningKeys: [${RELAY_TOKEN_SIGNING_KEY}]`,
      'aiServices:',
      '  resources:',
      `    - { name: test-translator, kind: translator, region: global, keys: [${TRANSLATOR_KEYS.join(', ')}] }`,
      `  translation: { provider: phrasebook, phrasebooks: [${JSON.stringify(BOT_PHRASEBOOK)}] }`,
    ].join('\n'),
  );
  const common = { HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' };
  const bus = createActivityBus({});
  const store = createConversationStore();
  const services: RunningService[] = [];
  const close = async (): Promise<void> => {
    for (const service of services.splice(0).reverse()) await service.close();
    await bus.close();
    await store.close();
    await database.drop();
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const api = await startInspectionApi({
      environment: {
        ...common,
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        INSPECTION_MEDIA_ROOT: join(directory, 'media'),
        ...options.apiEnvironment?.({ botPort }),
        INSPECTION_ADMIN_USERNAME: SERVICE_ACCOUNT.username,
        INSPECTION_ADMIN_PASSWORD: SERVICE_ACCOUNT.password,
      },
    });
    services.push(api);
    const connector = await startConnectorGateway({
      environment: {
        ...common,
        CONNECTOR_GATEWAY_PORT: '0',
        PLATFORM_CONFIG: configPath,
        CONNECTOR_INTERNAL_KEY: INTERNAL_KEY,
        CONNECTOR_DEV_SIGNING_KEY_FILE: join(directory, 'signing-key.pem'),
      },
      bus,
      store,
    });
    services.push(connector);
    const relayEnvironment = {
      ...common,
      RELAY_GATEWAY_PORT: '0',
      PLATFORM_CONFIG: configPath,
      RELAY_BOT_SERVICE_URL: `${connector.url}/`,
      RELAY_CONNECTOR_URL: connector.url,
      RELAY_CONNECTOR_KEY: INTERNAL_KEY,
    };
    const relay = await startRelayGateway({ environment: relayEnvironment, bus, store });
    services.push(relay);
    relayEnvironment.RELAY_GATEWAY_PORT = new URL(relay.url).port;
    const botEnvironment = {
      ...common,
      // A configured session secret, so session cookies outlive a restart of the bot (as in production).
      INSPECTION_BOT_SESSION_SECRET: 'session-secret-of-the-test-platform-0123456789',
      INSPECTION_BOT_PORT: String(botPort),
      INSPECTION_API_URL: api.url,
      INSPECTION_BOT_API_USERNAME: SERVICE_ACCOUNT.username,
      INSPECTION_BOT_API_PASSWORD: SERVICE_ACCOUNT.password,
      INSPECTION_BOT_RELAY_URL: relay.url,
      INSPECTION_BOT_DIRECTLINE_SECRET: BOT.directLineSecret,
      INSPECTION_BOT_NOTIFICATIONS_SECRET: NOTIFICATIONS_SECRET,
      MicrosoftAppId: BOT.appId,
      MicrosoftAppPassword: BOT.password,
      ToChannelFromBotLoginUrl: `${connector.url}/botframework.com`,
      ToBotFromChannelOpenIdMetadataUrl: `${connector.url}/v1/.well-known/openidconfiguration`,
      ToBotFromEmulatorOpenIdMetadataUrl: `${connector.url}/v1/.well-known/openidconfiguration`,
      OAuthUrl: connector.url,
      // Prompts in other languages through connector-gateway's Translator endpoint, a key exchanged for tokens.
      INSPECTION_BOT_TRANSLATOR_URL: connector.url,
      INSPECTION_BOT_TRANSLATOR_AUTH: 'exchanged-token',
      INSPECTION_BOT_TRANSLATOR_KEY: TRANSLATOR_KEYS[0],
      INSPECTION_BOT_TRANSLATOR_KEY_2: TRANSLATOR_KEYS[1],
      ...options.botEnvironment,
    };
    const bot = await startInspectionBot({ logger: options.botLogger, environment: botEnvironment });
    services.push(bot);
    const client = new InspectionApiClient({ baseUrl: api.url, ...SERVICE_ACCOUNT });
    await seedDemoInspectionData(client);
    const createAccount = async (username: string, password: string): Promise<number> => {
      const response = await fetch(`${api.url}/api/users/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await client.accessToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ username, password, role: 'inspector' }),
      });
      if (response.status !== 201) throw new Error(`user: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: number }).id;
    };
    const inspectorId = await createAccount(INSPECTOR.username, INSPECTOR.password);
    const clearRecords = async (): Promise<void> => {
      const authorization = `Bearer ${await client.accessToken()}`;
      for (;;) {
        const page = await fetch(`${api.url}/api/records/?page_size=100`, { headers: { authorization } });
        const { results } = (await page.json()) as { results: Array<{ id: number }> };
        if (results.length === 0) return;
        for (const { id } of results) {
          const deleted = await fetch(`${api.url}/api/records/${id}/`, {
            method: 'DELETE',
            headers: { authorization },
          });
          if (deleted.status !== 204)
            throw new Error(`record ${id}: ${deleted.status} ${await deleted.text()}`);
        }
      }
    };
    const platform: RunningInspectionPlatform = {
      api,
      connector,
      relay,
      bot,
      store,
      client,
      inspectorId,
      accounts: { url: api.url, supervisor: SERVICE_ACCOUNT },
      createAccount,
      clearRecords,
      close,
      startBotLike: async (changes) => {
        const instance = await startInspectionBot({
          logger: options.botLogger,
          environment: { ...botEnvironment, ...changes },
        });
        services.push(instance);
        return instance;
      },
      restartBot: async () => {
        const index = services.indexOf(platform.bot);
        await platform.bot.close();
        platform.bot = await startInspectionBot({ logger: options.botLogger, environment: botEnvironment });
        services.splice(index, 1, platform.bot);
        return platform.bot;
      },
      stopRelay: async () => {
        const index = services.indexOf(platform.relay);
        services.splice(index, 1);
        await platform.relay.close();
        return async () => {
          platform.relay = await startRelayGateway({ environment: relayEnvironment, bus, store });
          services.splice(index, 0, platform.relay);
          return platform.relay;
        };
      },
    };
    return platform;
  } catch (error) {
    await close();
    throw error;
  }
}

/** An access token of inspection-api for these credentials (simplejwt's `/api/token/`). */
export async function accessToken(
  platform: RunningInspectionPlatform,
  credentials: { username: string; password: string },
): Promise<string> {
  const response = await fetch(`${platform.api.url}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw new Error(`token for ${credentials.username}: ${response.status}`);
  return ((await response.json()) as { access: string }).access;
}
