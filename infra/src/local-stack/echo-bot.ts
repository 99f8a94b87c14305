import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { CloudAdapter, ConfigurationBotFrameworkAuthentication, type TurnContext } from 'botbuilder';
import express from 'express';

export interface EchoBot {
  /** The messaging endpoint (`…/api/messages`). */
  endpoint: string;
  /** Turns that failed (e.g. a reply refused while Redis was down); the adapter answered 500. */
  failedTurns: number;
  close(): Promise<void>;
}

/** The text the bot answers a user's message with. */
export function echoOf(text: string): string {
  return `echo: ${text}`;
}

/**
 * A stock botbuilder bot: CloudAdapter behind express, configured by settings only (anonymous: empty
 * MicrosoftAppId), replying `echo: <text>` to every message through the connector at the activity's serviceUrl.
 */
export async function startEchoBot(port = 0): Promise<EchoBot> {
  const adapter = new CloudAdapter(
    new ConfigurationBotFrameworkAuthentication({ MicrosoftAppId: '', MicrosoftAppPassword: '' }),
  );
  const bot: EchoBot = { endpoint: '', failedTurns: 0, close: () => Promise.resolve() };
  // Count the failed turn and let the adapter answer 500, so the connector reports the failure to the relay.
  adapter.onTurnError = (_context, error) => {
    bot.failedTurns += 1;
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  };
  const logic = async (context: TurnContext): Promise<void> => {
    if (context.activity.type !== 'message') return;
    await context.sendActivity(echoOf(context.activity.text ?? ''));
  };
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/api/messages', (request, response) => {
    adapter.process(request, response, logic).catch(() => {
      if (!response.headersSent) response.status(500).end();
    });
  });
  const server: Server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  bot.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/messages`;
  bot.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return bot;
}
