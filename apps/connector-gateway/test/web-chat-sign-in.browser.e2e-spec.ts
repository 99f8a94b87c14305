import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { AgentApplication, TurnContext, TurnState, UserTokenClient } from '@microsoft/agents-hosting';
import { ConversationState, MemoryStorage, type TurnContext as ClassicTurnContext } from 'botbuilder';
import { DialogSet, DialogTurnStatus, OAuthPrompt } from 'botbuilder-dialogs';
import {
  describeInChromium,
  horizontalOverflow,
  launchChromium,
  openPage,
  PHONE,
  seriousAxeViolations,
} from '@fieldops/testing/browser';
import { type Browser, type Page } from 'playwright-core';
import { loadAgentsSdk, startMsalBot } from './support/bot-stacks';
import { freePort, type RunningIdentityProvider, startIdentityProvider } from '@fieldops/testing';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

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
const AGENT_IDENTITY_HEADER = 'web-chat-agent-identity-header-01';

/**
 * The page a company embeds Web Chat in, behind the same front as the relay (as infra/nginx does): `/` is the page,
 * `/v3/directline/…` goes to relay-gateway. Same host as the connector, so the relay's session cookie reaches the
 * connector's sign-in pages.
 */
function serveChatPage(
  front: LateBoundServer,
  relayUrl: string,
  directLineToken: string,
  userId: string,
): void {
  const relay = new URL(relayUrl);
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Chat</title><style>html,body,#chat{height:100%;margin:0}</style></head>
<body><main id="chat" aria-label="Chat"></main><script src="/webchat.js"></script>
<script>
  window.WebChat.renderWebChat({
    directLine: window.WebChat.createDirectLine({
      domain: location.origin + '/v3/directline',
      token: ${JSON.stringify(directLineToken)},
      webSocket: false,
    }),
    userID: ${JSON.stringify(userId)},
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

/** The page's serious and critical axe-core violations, also written to .reports/`report`. */
async function axeReport(page: Page, report: string): Promise<unknown[]> {
  const serious = await seriousAxeViolations(page);
  writeFileSync(join(REPORTS, report), JSON.stringify(serious, null, 2));
  return serious;
}

/** Failed responses on `page` (a 4xx or 5xx the page asked for), added to `errors`. */
function watchResponses(page: Page, errors: string[]): void {
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`response: ${response.status()} ${response.url()}`);
  });
}

describeInChromium(
  'Web Chat in Chromium: the OAuthCard’s sign-in button, the provider in a second tab, the token in the chat, sign-out',
  () => {
    const classicServer = new LateBoundServer();
    const agentServer = new LateBoundServer();
    const front = new LateBoundServer();
    let idp: RunningIdentityProvider;
    let platform: RunningPlatform;
    let browser: Browser;
    let classicBot: PlatformBot;
    let agentBot: PlatformBot;
    let restoreEnvironment: () => void = () => undefined;
    let application: AgentApplication<TurnState>;

    /** Who the provider says the token belongs to (its userinfo endpoint). */
    const subjectOf = async (token: string | undefined): Promise<string> => {
      const userinfo = await fetch(`${idp.issuer}/me`, {
        headers: { Authorization: `Bearer ${token ?? ''}` },
      });
      if (!userinfo.ok) return `nobody (${userinfo.status})`;
      return String(((await userinfo.json()) as { sub?: unknown }).sub);
    };

    beforeAll(async () => {
      mkdirSync(REPORTS, { recursive: true });
      await Promise.all([classicServer.start(), agentServer.start(), front.start()]);
      const idpPort = await freePort();
      // One OAuth connection to one provider, the same for both bots.
      const connection = [
        'oauthConnections:',
        '  - name: company',
        `    issuer: http://127.0.0.1:${idpPort}`,
        '    clientId: fieldops-bots',
        '    clientSecret: bots-oidc-client-secret',
        '    displayName: Company sign-in',
      ];
      classicBot = {
        id: 'web-chat-classic',
        appId: 'web-chat-classic-app-id',
        secret: 'web-chat-classic-directline-secret',
        credentials: ['appPassword: web-chat-classic-password-1', ...connection],
        endpoint: classicServer,
      };
      agentBot = {
        id: 'web-chat-agent',
        appId: 'web-chat-agent-app-id',
        secret: 'web-chat-agent-directline-secret',
        credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`, ...connection],
        endpoint: agentServer,
      };
      platform = await startPlatform([classicBot, agentBot], { CONNECTOR_USER_TOKEN_KEY: USER_TOKEN_KEY });
      const gateway = platform.connector.url;
      idp = await startIdentityProvider({
        port: idpPort,
        redirectUris: [`${gateway}/api/oauth/callback`],
        clients: [{ id: 'fieldops-bots', secret: 'bots-oidc-client-secret' }],
      });

      // The stock botbuilder bot: OAuthPrompt in a dialog; "logout" signs out through the prompt.
      const conversationState = new ConversationState(new MemoryStorage());
      const dialogs = new DialogSet(conversationState.createProperty('dialogs'));
      const prompt = new OAuthPrompt('login', {
        connectionName: 'company',
        title: 'Sign in',
        text: 'Sign in to the company',
        timeout: 300_000,
        showSignInLink: true,
      });
      dialogs.add(prompt);
      await startMsalBot(
        classicServer,
        gateway,
        { appId: classicBot.appId, password: 'web-chat-classic-password-1' },
        async (context: ClassicTurnContext) => {
          if (!['message', 'event', 'invoke'].includes(context.activity.type)) return;
          if (context.activity.type === 'message' && context.activity.text === 'logout') {
            await prompt.signOutUser(context);
            // GetToken for this user and connection, as the prompt asks it.
            const left = await prompt.getUserToken(context);
            await context.sendActivity(`classic: signed out, token ${left?.token ? 'still there' : 'gone'}`);
            return;
          }
          const dc = await dialogs.createContext(context);
          let result = await dc.continueDialog();
          if (result.status === DialogTurnStatus.empty && context.activity.type === 'message')
            result = await dc.beginDialog('login');
          if (result.status === DialogTurnStatus.complete) {
            const token = (result.result as { token?: string } | undefined)?.token;
            await context.sendActivity(`classic: signed in as ${await subjectOf(token)}`);
          }
          await conversationState.saveChanges(context);
        },
      );

      // The stock Agents SDK agent: user authorization on the same connection, configured by the SDK's own
      // environment variables (TOKEN_SERVICE_ENDPOINT = the connector), CloudAdapter with its JWT middleware.
      const sdk = await loadAgentsSdk(
        gateway,
        { appId: agentBot.appId, identityHeader: AGENT_IDENTITY_HEADER },
        { tokenService: true },
      );
      restoreEnvironment = sdk.restore;
      application = new sdk.hosting.AgentApplication<TurnState>({
        storage: new sdk.hosting.MemoryStorage(),
        authorization: {
          company: {
            azureBotOAuthConnectionName: 'company',
            title: 'Sign in',
            text: 'Sign in to the company',
          },
        },
      });
      application.onMessage('logout', async (context: TurnContext, state: TurnState) => {
        await application.authorization.signOut(context, state, 'company');
        // GetToken for this user and connection, through the SDK's own user-token client.
        const client = context.turnState.get<UserTokenClient>(context.adapter.UserTokenClientKey);
        const left = await client.getUserToken(
          'company',
          context.activity.channelId ?? '',
          context.activity.from?.id ?? '',
        );
        await context.sendActivity(`agent: signed out, token ${left.token ? 'still there' : 'gone'}`);
      });
      application.onMessage(
        'whoami',
        async (context: TurnContext) => {
          const { token } = await application.authorization.getToken(context, 'company');
          await context.sendActivity(`agent: signed in as ${await subjectOf(token)}`);
        },
        ['company'],
      );
      await sdk.serve(agentServer, application);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      restoreEnvironment();
      await idp?.stop();
      await platform?.close();
      await Promise.all([classicServer.stop(), agentServer.stop(), front.stop()]);
    });

    it.each([
      ['botbuilder’s OAuthPrompt', () => classicBot, 'classic'],
      ['the Agents SDK’s user authorization', () => agentBot, 'agent'],
    ])(
      '%s, phone (390×844): sign-in button → provider login and consent in a new tab → the token; sign out → the button again',
      async (_name, bot, label) => {
        const generated = await fetch(`${platform.relay.url}/v3/directline/tokens/generate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${bot().secret}` },
        });
        const { token } = (await generated.json()) as { token: string };
        serveChatPage(front, platform.relay.url, token, `dl_web-chat-user-of-${label}`);
        const inspector = `inspector-of-${label}-in-chromium`;
        const { context, page, errors } = await openPage(browser, { viewport: PHONE, locale: 'en-US' });
        watchResponses(page, errors);
        try {
          await page.goto(front.url);
          const transcript = page.locator('.webchat__basic-transcript');
          const box = page.locator('.webchat__send-box').getByRole('textbox').first();
          const say = async (text: string) => {
            await box.fill(text);
            await box.press('Enter');
          };
          await say('whoami');
          const signInButtons = transcript.getByRole('button', { name: 'Sign in' });
          await signInButtons.first().waitFor({ timeout: 30_000 });
          await page.screenshot({ path: join(REPORTS, `web-chat-sign-in-card-${label}-phone.png`) });
          // Web Chat opens the link in a new tab after asking the relay for the browser's Direct Line session.
          const [provider] = await Promise.all([context.waitForEvent('page'), signInButtons.first().click()]);
          const providerErrors: string[] = [];
          provider.on('pageerror', (error) => providerErrors.push(`pageerror: ${error.message}`));
          await provider.locator('input[name="login"]').fill(inspector);
          await provider.locator('input[name="password"]').fill('any-password');
          await provider.locator('button[type="submit"]').click();
          await provider.locator('button[type="submit"]', { hasText: /continue/i }).click();
          // The platform's own page at the end of the flow: signed in, no code to type.
          await provider.locator('[data-signed-in]').waitFor({ timeout: 30_000 });
          expect(await provider.locator('[data-magic-code]').count()).toBe(0);
          await provider.screenshot({ path: join(REPORTS, `web-chat-signed-in-tab-${label}-phone.png`) });
          expect(await axeReport(provider, `axe-web-chat-signed-in-tab-${label}.json`)).toEqual([]);
          await provider.close();
          expect(providerErrors).toEqual([]);

          // Back in the chat: the bot already has the token and says whom the provider says it belongs to.
          await transcript
            .getByText(`${label}: signed in as ${inspector}`)
            .first()
            .waitFor({ timeout: 30_000 });
          await page.screenshot({ path: join(REPORTS, `web-chat-signed-in-${label}-phone.png`) });

          // Sign-out through the user-token service; GetToken then answers no token.
          await say('logout');
          await transcript.getByText(`${label}: signed out, token gone`).first().waitFor({ timeout: 30_000 });
          // Asking again shows the sign-in button again (a second card).
          await say('whoami');
          await signInButtons.nth(1).waitFor({ timeout: 30_000 });
          // Still signed in once only: the second card asks again, no token answered it.
          const bubbles = transcript.locator('.webchat__bubble__content');
          expect(await bubbles.filter({ hasText: `${label}: signed in as` }).count()).toBe(1);
          await page.screenshot({ path: join(REPORTS, `web-chat-signed-out-${label}-phone.png`) });

          expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
          expect(await axeReport(page, `axe-web-chat-sign-in-${label}.json`)).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      180_000,
    );
  },
);
