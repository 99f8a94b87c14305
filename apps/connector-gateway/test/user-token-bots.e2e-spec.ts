import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe).
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import type { AgentApplication, TurnContext, TurnState } from '@microsoft/agents-hosting';
import { ConversationState, MemoryStorage, type TurnContext as ClassicTurnContext } from 'botbuilder';
import { DialogSet, DialogTurnStatus, OAuthPrompt } from 'botbuilder-dialogs';
import { type UserTokenClient } from 'botframework-connector';
import { DirectLine } from 'botframework-directlinejs';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { loadAgentsSdk, startMsalBot } from './support/bot-stacks';
import {
  CookieClient,
  freePort,
  idTokenFrom,
  isSignedInPage,
  magicCodeOn,
  type RunningIdentityProvider,
  signInAt,
  startIdentityProvider,
  webChatSignInLink,
} from '@fieldops/testing';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

const USER_TOKEN_KEY = 'user-token-key-for-tests-0123456789abcdef';
const AGENT_IDENTITY_HEADER = 'signing-agent-identity-header-01';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Received = {
  type: string;
  from: { id: string; role?: string };
  text?: string;
  attachments?: Array<{
    contentType: string;
    content?: { buttons?: Array<{ type: string; value?: string }> };
  }>;
};

/** One user's Direct Line conversation with a bot, turn by turn. */
class Chat {
  private readonly received: Received[] = [];
  private seen = 0;
  private readonly client: DirectLine;
  private readonly subscription: { unsubscribe(): void };

  constructor(
    relayUrl: string,
    secret: string,
    private readonly userId: string,
  ) {
    this.client = new DirectLine({ secret, domain: `${relayUrl}/v3/directline` });
    this.subscription = this.client.activity$.subscribe((activity) => this.received.push(activity));
  }

  /** Sends `text`, then waits for the bot's next activity that `match` accepts. */
  async say(text: string, match: (activity: Received) => boolean): Promise<Received> {
    return this.send({ type: 'message', text }, match, text);
  }

  /** Sends an activity (an invoke, say), then waits for the bot's next activity that `match` accepts. */
  async send(
    activity: Record<string, unknown>,
    match: (activity: Received) => boolean,
    text = JSON.stringify(activity),
  ): Promise<Received> {
    await new Promise<string>((resolve, reject) =>
      this.client
        .postActivity({ ...activity, from: { id: this.userId } } as Parameters<DirectLine['postActivity']>[0])
        .subscribe(resolve, reject),
    );
    return this.next(match, text);
  }

  /** Waits for the bot's next activity that `match` accepts (after what was sent: `text`). */
  async next(match: (activity: Received) => boolean, text = 'nothing'): Promise<Received> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const fromBot = this.received.filter((activity) => activity.from.role === 'bot');
      const index = fromBot.slice(this.seen).findIndex(match);
      if (index >= 0) {
        this.seen += index + 1;
        return fromBot[this.seen - 1];
      }
      if (Date.now() > deadline)
        throw new Error(`no answer to ${text}: ${JSON.stringify(fromBot.slice(this.seen))}`);
      await sleep(25);
    }
  }

  close(): void {
    this.subscription.unsubscribe();
    this.client.end();
  }
}

const isSignInCard = (activity: Received) =>
  activity.attachments?.some(
    (attachment) => attachment.contentType === 'application/vnd.microsoft.card.oauth',
  ) ?? false;

function signInLinkOf(activity: Received): string {
  const card = activity.attachments?.find(
    (attachment) => attachment.contentType === 'application/vnd.microsoft.card.oauth',
  );
  const link = card?.content?.buttons?.[0]?.value;
  if (!link) throw new Error(`no sign-in link in ${JSON.stringify(activity)}`);
  return link;
}

describe('OAuthPrompt (botbuilder) and user authorization (Agents SDK) sign in through the company’s provider', () => {
  const agentServer = new LateBoundServer();
  const classicServer = new LateBoundServer();
  let idp: RunningIdentityProvider;
  let platform: RunningPlatform;
  let restoreEnvironment: () => void = () => undefined;
  let application: AgentApplication<TurnState>;
  const connection = (issuer: string) => [
    'oauthConnections:',
    '  - name: company',
    `    issuer: ${issuer}`,
    '    clientId: fieldops-bots',
    '    clientSecret: bots-oidc-client-secret',
  ];

  /**
   * Who the provider says the token belongs to: its userinfo endpoint for an access token; for an ID token (what SSO
   * exchanges), the subject the provider's keys vouch for.
   */
  const subjectOf = async (token: string | undefined): Promise<string> => {
    const response = await fetch(`${idp.issuer}/me`, { headers: { Authorization: `Bearer ${token ?? ''}` } });
    if (response.ok) return String(((await response.json()) as { sub?: unknown }).sub);
    try {
      const { payload } = await jwtVerify(token ?? '', createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)));
      return `${payload.sub} (ID token)`;
    } catch {
      return `refused ${response.status}`;
    }
  };

  const agent = (issuer: string): PlatformBot => ({
    id: 'signing-agent',
    appId: 'signing-agent-app-id',
    secret: 'signing-agent-directline-secret-1',
    credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`, ...connection(issuer)],
    endpoint: agentServer,
  });
  const classic = (issuer: string): PlatformBot => ({
    id: 'signing-classic',
    appId: 'signing-classic-app-id',
    secret: 'signing-classic-directline-secret',
    credentials: ['appPassword: signing-classic-password-1', ...connection(issuer)],
    endpoint: classicServer,
  });
  let agentBot: PlatformBot;
  let classicBot: PlatformBot;
  // Where the provider sends an SSO client's own sign-in back (it answers anything).
  const ssoClient = new LateBoundServer();

  // Loading the Agents SDK and starting a platform and a provider take long on a busy machine.
  beforeAll(async () => {
    await Promise.all([agentServer.start(), classicServer.start(), ssoClient.start()]);
    const idpPort = await freePort();
    const issuer = `http://127.0.0.1:${idpPort}`;
    agentBot = agent(issuer);
    classicBot = classic(issuer);
    platform = await startPlatform([agentBot, classicBot], { CONNECTOR_USER_TOKEN_KEY: USER_TOKEN_KEY });
    const gateway = platform.connector.url;
    idp = await startIdentityProvider({
      port: idpPort,
      redirectUris: [`${gateway}/api/oauth/callback`, `${ssoClient.url}/signed-in`],
      clients: [{ id: 'fieldops-bots', secret: 'bots-oidc-client-secret' }],
    });

    // The agent: the SDK's own environment variables, TOKEN_SERVICE_ENDPOINT = the connector.
    const sdk = await loadAgentsSdk(
      gateway,
      { appId: agentBot.appId, identityHeader: AGENT_IDENTITY_HEADER },
      { tokenService: true },
    );
    restoreEnvironment = sdk.restore;
    const { hosting } = sdk;
    application = new hosting.AgentApplication<TurnState>({
      storage: new hosting.MemoryStorage(),
      authorization: {
        company: { azureBotOAuthConnectionName: 'company', title: 'Sign in', text: 'Sign in to the company' },
      },
    });
    application.onMessage('logout', async (context: TurnContext, state: TurnState) => {
      await application.authorization.signOut(context, state, 'company');
      await context.sendActivity('agent: signed out');
    });
    application.onMessage(
      'whoami',
      async (context: TurnContext) => {
        const { token } = await application.authorization.getToken(context, 'company');
        await context.sendActivity(`agent: you are ${await subjectOf(token)}`);
      },
      ['company'],
    );
    await sdk.serve(agentServer, application);

    const conversationState = new ConversationState(new MemoryStorage());
    const dialogs = new DialogSet(conversationState.createProperty('dialogs'));
    dialogs.add(
      new OAuthPrompt('login', {
        connectionName: 'company',
        title: 'Sign in',
        text: 'Sign in to the company',
        timeout: 300_000,
        // On a Direct Line channel OAuthPrompt leaves the link for the channel to fill; ask for it in the card.
        showSignInLink: true,
      }),
    );
    // The botbuilder bot: OAuthPrompt in a dialog, OAuthUrl = the connector (recipe C).
    const adapter = await startMsalBot(
      classicServer,
      gateway,
      { appId: classicBot.appId, password: 'signing-classic-password-1' },
      async (context: ClassicTurnContext) => {
        // Messages, and the sign-in's event (tokens/response) and invokes (signin/tokenExchange) for OAuthPrompt.
        if (!['message', 'event', 'invoke'].includes(context.activity.type)) return;
        if (context.activity.type === 'message' && context.activity.text === 'logout') {
          const client = context.turnState.get<UserTokenClient>(adapter.UserTokenClientKey);
          await client.signOutUser(context.activity.from.id, 'company', context.activity.channelId);
          await context.sendActivity('classic: signed out');
          return;
        }
        const dc = await dialogs.createContext(context);
        let result = await dc.continueDialog();
        if (result.status === DialogTurnStatus.empty) result = await dc.beginDialog('login');
        if (result.status === DialogTurnStatus.complete) {
          const token = (result.result as { token?: string } | undefined)?.token;
          await context.sendActivity(`classic: you are ${await subjectOf(token)}`);
        }
        await conversationState.saveChanges(context);
      },
    );
  }, 120_000);

  afterAll(async () => {
    restoreEnvironment();
    await idp?.stop();
    await platform?.close();
    await Promise.all([agentServer.stop(), classicServer.stop(), ssoClient.stop()]);
  });

  it.each([
    ['the Agents SDK agent', () => agentBot, 'agent'],
    ['the botbuilder bot', () => classicBot, 'classic'],
  ])(
    '%s: sign-in card → provider → magic code → the token; again without a card; sign out',
    async (_name, bot, label) => {
      const chat = new Chat(platform.relay.url, bot().secret, `inspector-of-${label}`);
      try {
        const card = await chat.say('whoami', isSignInCard);
        const code = magicCodeOn(await signInAt(signInLinkOf(card), `inspector-of-${label}`));
        const signedIn = await chat.say(
          code,
          (activity) => activity.text?.startsWith(`${label}: you are`) ?? false,
        );
        expect(signedIn.text).toBe(`${label}: you are inspector-of-${label}`);
        // The token is kept: no card the second time.
        const again = await chat.say(
          'whoami',
          (activity) => activity.text !== undefined || isSignInCard(activity),
        );
        expect(again.text).toBe(`${label}: you are inspector-of-${label}`);
        await chat.say('logout', (activity) => activity.text === `${label}: signed out`);
        // Signed out: the card again, and the old code works no more.
        await chat.say('whoami', isSignInCard);
      } finally {
        chat.close();
      }
    },
  );

  it.each([
    ['the Agents SDK agent (signin/verifyState)', () => agentBot, 'agent'],
    ['the botbuilder bot (tokens/response)', () => classicBot, 'classic'],
  ])(
    '%s: signed in from the chat’s own browser (Web Chat’s code_challenge), the token reaches the bot without a code',
    async (_name, bot, label) => {
      const user = `web-chat-user-of-${label}`;
      const chat = new Chat(platform.relay.url, bot().secret, user);
      try {
        const card = await chat.say('whoami', isSignInCard);
        const browser = new CookieClient();
        const link = await webChatSignInLink(signInLinkOf(card), platform.relay.url, bot().secret, browser);
        const page = await signInAt(link, user, browser);
        expect(isSignedInPage(page)).toBe(true);
        const signedIn = await chat.next(
          (activity) => activity.text?.startsWith(`${label}: you are`) ?? false,
        );
        expect(signedIn.text).toBe(`${label}: you are ${user}`);
        await chat.say('logout', (activity) => activity.text === `${label}: signed out`);
      } finally {
        chat.close();
      }
    },
  );

  it('a link carrying another browser’s Direct Line session still needs the magic code', async () => {
    const chat = new Chat(platform.relay.url, classicBot.secret, 'victim-of-forwarding');
    try {
      const card = await chat.say('whoami', isSignInCard);
      // The link as the chat's browser would open it, opened in another browser (forwarded).
      const link = await webChatSignInLink(
        signInLinkOf(card),
        platform.relay.url,
        classicBot.secret,
        new CookieClient(),
      );
      const page = await signInAt(link, 'someone-else');
      expect(isSignedInPage(page)).toBe(false);
      const code = magicCodeOn(page);
      const signedIn = await chat.say(
        code,
        (activity) => activity.text?.startsWith('classic: you are') ?? false,
      );
      expect(signedIn.text).toBe('classic: you are someone-else');
      await chat.say('logout', (activity) => activity.text === 'classic: signed out');
    } finally {
      chat.close();
    }
  });

  it.each([
    ['the Agents SDK agent', () => agentBot, 'agent'],
    ['the botbuilder bot', () => classicBot, 'classic'],
  ])(
    '%s: SSO, the client exchanges an ID token it already holds from the provider (signin/tokenExchange)',
    async (_name, bot, label) => {
      ssoClient.handler = (_request, response) => response.writeHead(200).end('signed in');
      const user = `sso-user-of-${label}`;
      const chat = new Chat(platform.relay.url, bot().secret, user);
      try {
        const card = await chat.say('whoami', isSignInCard);
        const idToken = await idTokenFrom(
          idp.issuer,
          { id: 'fieldops-bots', secret: 'bots-oidc-client-secret' },
          `${ssoClient.url}/signed-in`,
          user,
        );
        // What Teams (or a Web Chat SSO middleware) sends when the card offers a token exchange.
        const signedIn = await chat.send(
          {
            type: 'invoke',
            name: 'signin/tokenExchange',
            value: { id: 'exchange-1', connectionName: 'company', token: idToken },
          },
          (activity) => activity.text?.startsWith(`${label}: you are`) ?? false,
        );
        expect(card.attachments?.length).toBe(1);
        expect(signedIn.text).toBe(`${label}: you are ${user} (ID token)`);
        await chat.say('logout', (activity) => activity.text === `${label}: signed out`);
      } finally {
        chat.close();
      }
    },
  );
});
