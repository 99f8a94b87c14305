import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Activity } from '@fieldops/contracts';
import { type Logger } from '@fieldops/platform';
import { ConversationLog, startRelayGateway } from '../../src';

export const SECRET = 'test-directline-secret-0001';
export const SECOND_SECRET = 'test-directline-secret-0002';
export const ENHANCED_SECRET = 'enhanced-directline-secret-01';
export const TRUSTED_ORIGIN = 'https://chat.example.com';

export type RelayGateway = Awaited<ReturnType<typeof startRelayGateway>>;

/** The test bot as its conversations name it (`test-bot` in the platform configuration below). */
export const TEST_BOT = { id: 'test-bot', name: 'Test bot' } as const;

/** How the test bot answers one activity: HTTP status, delay, and whether it replies into the conversation. */
export interface BotBehaviour {
  status?: number;
  /** A JSON answer (an invoke response). */
  body?: unknown;
  delayMs?: number;
  reply?: boolean;
}

/** The test bot says `text` in the conversation without being asked: appended to its log, streams woken. */
export async function botSays(relay: RelayGateway, conversationId: string, text: string): Promise<void> {
  await relay.app.get(ConversationLog).appendFromBot(conversationId, { type: 'message', text }, TEST_BOT);
}

/** A plain HTTP server playing the bot: records what it receives and replies through the relay's ConversationLog. */
export class TestBot {
  readonly received: Activity[] = [];
  behaviour: (activity: Activity) => BotBehaviour = () => ({});
  replyThrough: RelayGateway | undefined;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(
        ({ status, body }) =>
          body === undefined
            ? response.writeHead(status).end()
            : response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)),
        () => response.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/messages`;
  }

  messages(conversationId: string): Activity[] {
    return this.received.filter((activity) => activity.conversation?.id === conversationId);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const activity = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Activity;
    this.received.push(activity);
    const behaviour = this.behaviour(activity);
    if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (activity.type === 'message' && behaviour.reply !== false && this.replyThrough) {
      await this.replyThrough.app.get(ConversationLog).appendFromBot(
        activity.conversation!.id,
        {
          type: 'message',
          from: { id: 'test-bot', name: 'Test bot', role: 'bot' },
          recipient: activity.from,
          replyToId: activity.id,
          // A fuzzed activity's text may be any JSON value (e.g. `{toString: ""}`): this bot must not crash on it.
          text: `echo: ${typeof activity.text === 'string' ? activity.text : ''}`,
        },
        TEST_BOT,
      );
    }
    return { status: behaviour.status ?? 200, body: behaviour.body };
  }
}

export function writePlatformConfig(botUrl: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'relay-test-'));
  const path = join(directory, 'platform.yaml');
  writeFileSync(
    path,
    [
      'bots:',
      '  - id: test-bot',
      '    appId: test-bot-app-id',
      '    name: Test bot',
      `    messagingEndpoint: ${botUrl}`,
      '    directLine:',
      `      secrets: [${SECRET}, { env: TEST_SECOND_SECRET }]`,
      '  - id: enhanced-bot',
      '    appId: enhanced-bot-app-id',
      `    messagingEndpoint: ${botUrl}`,
      '    directLine:',
      `      secrets: [${ENHANCED_SECRET}]`,
      '      enhancedAuthentication: true',
      `      trustedOrigins: [${TRUSTED_ORIGIN}]`,
      'relay:',
      `  tokenSigningKeys: [${'s'.repeat(40)}]`,
    ].join('\n'),
  );
  return path;
}

/** Prefixes unique per test file, so runs against one Redis never see each other's keys and channels. */
const runId = randomUUID();

export function relayEnvironment(configPath: string, overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    RELAY_GATEWAY_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REDIS_URL: process.env.REDIS_URL,
    BUS_CHANNEL_PREFIX: `fieldops:test:${runId}:bus:`,
    STORE_KEY_PREFIX: `fieldops:test:${runId}:store:`,
    PLATFORM_CONFIG: configPath,
    TEST_SECOND_SECRET: SECOND_SECRET,
    BOT_DELIVERY_TIMEOUT_MS: '1500',
    ...overrides,
  };
}

export async function startRelay(
  configPath: string,
  overrides: NodeJS.ProcessEnv = {},
  logger?: Logger,
): Promise<RelayGateway> {
  return startRelayGateway({ environment: relayEnvironment(configPath, overrides), logger });
}

export interface Fixture {
  bot: TestBot;
  relay: RelayGateway;
  configPath: string;
  base: string;
  close(): Promise<void>;
}

export async function startFixture(overrides: NodeJS.ProcessEnv = {}, logger?: Logger): Promise<Fixture> {
  const bot = new TestBot();
  await bot.start();
  const configPath = writePlatformConfig(bot.url);
  const relay = await startRelay(configPath, overrides, logger);
  bot.replyThrough = relay;
  return {
    bot,
    relay,
    configPath,
    base: `${relay.url}/v3/directline`,
    close: async () => {
      await relay.close();
      await bot.stop();
    },
  };
}

export { waitFor } from '@fieldops/testing';

export function auth(credential: string, extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json', ...extra };
}
