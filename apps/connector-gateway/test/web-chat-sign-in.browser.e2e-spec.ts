import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ConversationState, MemoryStorage, type TurnContext } from 'botbuilder';
import { DialogSet, DialogTurnStatus, OAuthPrompt } from 'botbuilder-dialogs';
import { type Browser, chromium } from 'playwright-core';
import { startMsalBot } from './support/bot-stacks';
import { freePort, type RunningIdentityProvider, startIdentityProvider } from '@fieldops/testing';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

/** Debian's Chromium, headless (toolchain.md §5). Under CI a missing browser fails the run. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'];
if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
const REPORTS = join(__dirname, '..', '.reports');
/** Web Chat's own browser bundle (window.WebChat), as a page embeds it. */
const WEB_CHAT = join(
  __dirname,
  '..',
  '..',
  '..',
  'node_modules',
  'botframework-webchat',
  'dist',
  'webchat.js',
);
const USER_TOKEN_KEY = 'user-token-key-for-tests-0123456789abcdef';

/**
 * The page a company embeds Web Chat in, behind the same front as the relay (as infra/nginx does): `/` is the page,
 * `/v3/directline/…` goes to relay-gateway. Same host as the connector, so the relay's session cookie reaches the
 * connector's sign-in pages.
 */
function serveChatPage(front: LateBoundServer, relayUrl: string, directLineToken: string): void {
  const relay = new URL(relayUrl);
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat</title><style>html,body,#chat{height:100%;margin:0}</style></head>
<body><main id="chat" aria-label="Chat"></main><script src="/webchat.js"></script>
<script>
  window.WebChat.renderWebChat({
    directLine: window.WebChat.createDirectLine({
      domain: location.origin + '/v3/directline',
      token: ${JSON.stringify(directLineToken)},
      webSocket: false,
    }),
    userID: 'dl_web-chat-user',
    locale: 'en-US',
  }, document.getElementById('chat'));
</script></body></html>`;
  front.handler = (request, response) => {
    if (request.url === '/') return void response.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
    if (request.url === '/webchat.js')
      return void response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(WEB_CHAT));
    if (!request.url?.startsWith('/v3/directline/')) return void response.writeHead(404).end();
    const upstream = httpRequest(
      {
        host: relay.hostname,
        port: relay.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: relay.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  };
}

describe('Web Chat in Chromium: the OAuthCard’s sign-in button, the provider in a second tab, the token in the chat', () => {
  const botServer = new LateBoundServer();
  const front = new LateBoundServer();
  let idp: RunningIdentityProvider;
  let platform: RunningPlatform;
  let browser: Browser;
  let bot: PlatformBot;

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    await Promise.all([botServer.start(), front.start()]);
    const idpPort = await freePort();
    bot = {
      id: 'web-chat-classic',
      appId: 'web-chat-classic-app-id',
      secret: 'web-chat-classic-directline-secret',
      credentials: [
        'appPassword: web-chat-classic-password-1',
        'oauthConnections:',
        '  - name: company',
        `    issuer: http://127.0.0.1:${idpPort}`,
        '    clientId: fieldops-bots',
        '    clientSecret: bots-oidc-client-secret',
        '    displayName: Company sign-in',
      ],
      endpoint: botServer,
    };
    platform = await startPlatform([bot], { CONNECTOR_USER_TOKEN_KEY: USER_TOKEN_KEY });
    idp = await startIdentityProvider({
      port: idpPort,
      redirectUris: [`${platform.connector.url}/api/oauth/callback`],
      clients: [{ id: 'fieldops-bots', secret: 'bots-oidc-client-secret' }],
    });
    // The stock botbuilder bot: OAuthPrompt in a dialog; it reports whom the provider says the token belongs to.
    const conversationState = new ConversationState(new MemoryStorage());
    const dialogs = new DialogSet(conversationState.createProperty('dialogs'));
    dialogs.add(
      new OAuthPrompt('login', {
        connectionName: 'company',
        title: 'Sign in',
        text: 'Sign in to the company',
        timeout: 300_000,
        showSignInLink: true,
      }),
    );
    await startMsalBot(
      botServer,
      platform.connector.url,
      { appId: bot.appId, password: 'web-chat-classic-password-1' },
      async (context: TurnContext) => {
        if (!['message', 'event', 'invoke'].includes(context.activity.type)) return;
        const dc = await dialogs.createContext(context);
        let result = await dc.continueDialog();
        if (result.status === DialogTurnStatus.empty && context.activity.type === 'message')
          result = await dc.beginDialog('login');
        if (result.status === DialogTurnStatus.complete) {
          const token = (result.result as { token?: string } | undefined)?.token;
          const userinfo = await fetch(`${idp.issuer}/me`, { headers: { Authorization: `Bearer ${token}` } });
          const { sub } = (await userinfo.json()) as { sub?: string };
          await context.sendActivity(`Signed in as ${sub ?? 'nobody'}`);
        }
        await conversationState.saveChanges(context);
      },
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await platform?.close();
    await Promise.all([botServer.stop(), front.stop()]);
  });

  it('phone (390×844): sign-in button → provider login and consent in a new tab → the bot has the token', async () => {
    const generated = await fetch(`${platform.relay.url}/v3/directline/tokens/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bot.secret}` },
    });
    const { token } = (await generated.json()) as { token: string };
    serveChatPage(front, platform.relay.url, token);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(front.url);
      const box = page.locator('.webchat__send-box').getByRole('textbox').first();
      await box.fill('what is my name');
      await box.press('Enter');
      const signIn = page.getByRole('button', { name: 'Sign in' }).last();
      await signIn.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(REPORTS, 'web-chat-sign-in-card-phone.png') });
      // Web Chat opens the link in a new tab after asking the relay for the browser's Direct Line session.
      const [provider] = await Promise.all([context.waitForEvent('page'), signIn.click()]);
      await provider.waitForLoadState();
      await provider.locator('input[name="login"]').fill('inspector-in-chromium');
      await provider.locator('input[name="password"]').fill('any-password');
      await provider.locator('button[type="submit"]').click();
      await provider.locator('button[type="submit"]', { hasText: /continue/i }).click();
      await provider.locator('[data-signed-in]').waitFor({ timeout: 30_000 });
      expect(await provider.locator('[data-magic-code]').count()).toBe(0);
      await provider.screenshot({ path: join(REPORTS, 'web-chat-signed-in-tab-phone.png') });
      await provider.close();
      // Back in the chat: no code to type, the bot already has the token.
      await page.getByText('Signed in as inspector-in-chromium').first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(REPORTS, 'web-chat-signed-in-phone.png') });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
