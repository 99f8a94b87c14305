import { waitFor, withProcessEnvironment } from '@fieldops/testing';
import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe).
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import {
  CardFactory,
  CloudAdapter,
  ConfigurationBotFrameworkAuthentication,
  MessageFactory,
  type TurnContext,
} from 'botbuilder';
import { type Activity as DirectLineActivity, DirectLine } from 'botframework-directlinejs';
import { classicChannelSettings, serveClassicBot, startMsalBot } from './support/bot-stacks';
import { IDENTITY_HEADER, requestToken, SCOPE } from './support/gateway';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const HERO = (title: string) =>
  CardFactory.heroCard(
    title,
    'subtitle',
    ['https://example.com/a.png'],
    [
      { type: 'openUrl', title: 'Open', value: 'https://example.com/' },
      { type: 'imBack', title: 'Say hi', value: 'hi' },
    ],
  );

/** The test bot: answers `hello` with text, a hero carousel and a thumbnail card; `fail` throws; `hang` hangs. */
const hanging: Array<Promise<unknown>> = [];

function botLogic(errors: unknown[]) {
  return async (context: TurnContext): Promise<void> => {
    if (context.activity.type === 'invoke' && context.activity.name === 'inspection/lookup') {
      const value = context.activity.value as { code?: string };
      await context.sendActivity({
        type: 'invokeResponse',
        value: { status: 200, body: { found: true, code: value.code } },
      });
      return;
    }
    if (context.activity.type !== 'message') return;
    const text = context.activity.text ?? '';
    if (text === 'fail') throw new Error('the bot failed on purpose');
    if (text === 'hang') {
      const hang = sleep(2500);
      hanging.push(hang);
      await hang;
      return;
    }
    if (text === 'bad card') {
      try {
        await context.sendActivity(
          MessageFactory.attachment(
            CardFactory.heroCard('bad', [], [{ type: 'openUrl', title: 'x', value: 'not a url' }]),
          ),
        );
      } catch (error) {
        errors.push(error);
      }
      return;
    }
    await context.sendActivity(`you said ${text}`);
    await context.sendActivity(MessageFactory.carousel([HERO('one'), HERO('two')]));
    await context.sendActivity(
      MessageFactory.attachment(
        CardFactory.thumbnailCard(
          'thumb',
          ['https://example.com/t.png'],
          [{ type: 'postBack', title: 'Pick', value: 'picked' }],
        ),
      ),
    );
  };
}

describe('a stock botbuilder bot behind connector-gateway, a DirectLineJS client on relay-gateway', () => {
  const msiServer = new LateBoundServer();
  const anonymousServer = new LateBoundServer();
  const otherServer = new LateBoundServer();
  const msalServer = new LateBoundServer();
  const msalBot: PlatformBot = {
    id: 'msal-bot',
    appId: 'msal-bot-app-id',
    secret: 'msal-bot-directline-secret-01',
    credentials: ['appPassword: msal-bot-password-1'],
    endpoint: msalServer,
  };
  const msiBot: PlatformBot = {
    id: 'msi-bot',
    appId: 'msi-bot-app-id',
    secret: 'msi-bot-directline-secret-01',
    credentials: ['managedIdentity: true'],
    endpoint: msiServer,
  };
  const anonymousBot: PlatformBot = {
    id: 'anonymous-bot',
    appId: 'anonymous-bot-app-id',
    secret: 'anonymous-bot-directline-secret-01',
    credentials: ['anonymous: true'],
    endpoint: anonymousServer,
  };
  const otherBot: PlatformBot = {
    id: 'other-bot',
    appId: 'other-bot-app-id',
    secret: 'other-bot-directline-secret-01',
    credentials: ['appPassword: other-bot-password-1'],
    endpoint: otherServer,
  };
  const msiAuthorization: Array<string | undefined> = [];
  const anonymousAuthorization: Array<string | undefined> = [];
  const msalAuthorization: Array<string | undefined> = [];
  const botErrors: unknown[] = [];
  let platform: RunningPlatform;
  let restoreEnvironment: () => void;

  beforeAll(async () => {
    await Promise.all([msiServer.start(), anonymousServer.start(), otherServer.start(), msalServer.start()]);
    platform = await startPlatform([msiBot, anonymousBot, otherBot, msalBot], {
      CONNECTOR_DELIVERY_TIMEOUT_MS: '1500',
    });
    const gateway = platform.connector.url;
    restoreEnvironment = withProcessEnvironment({
      IDENTITY_ENDPOINT: `${gateway}/msi/token`,
      IDENTITY_HEADER,
    });
    const channel = classicChannelSettings(gateway);
    // Recipe B of docs/protocols/bot-connector.md: managed identity over http, authentication enabled, configuration only.
    const msiAdapter = new CloudAdapter(
      new ConfigurationBotFrameworkAuthentication({
        MicrosoftAppId: msiBot.appId,
        MicrosoftAppType: 'UserAssignedMsi',
        MicrosoftAppTenantId: 'botframework.com',
        MicrosoftAppPassword: '',
        ...channel,
      }),
    );
    serveClassicBot(msiServer, msiAdapter, botLogic(botErrors), msiAuthorization);
    // Recipe A: anonymous (empty MicrosoftAppId).
    const anonymousAdapter = new CloudAdapter(
      new ConfigurationBotFrameworkAuthentication({ MicrosoftAppId: '', MicrosoftAppPassword: '' }),
    );
    serveClassicBot(anonymousServer, anonymousAdapter, botLogic(botErrors), anonymousAuthorization);
    // Recipe C: msal with known-authority metadata (docs/protocols/bot-connector.md, ≈10 lines), password from the environment.
    await startMsalBot(
      msalServer,
      gateway,
      { appId: msalBot.appId, password: 'msal-bot-password-1' },
      botLogic(botErrors),
      msalAuthorization,
    );
  });

  afterAll(async () => {
    await Promise.all(hanging);
    restoreEnvironment();
    await platform.close();
    await Promise.all([msiServer.stop(), anonymousServer.stop(), otherServer.stop(), msalServer.stop()]);
  });

  async function converse(bot: PlatformBot): Promise<DirectLineActivity[]> {
    const client = new DirectLine({ secret: bot.secret, domain: `${platform.relay.url}/v3/directline` });
    const received: DirectLineActivity[] = [];
    const subscription = client.activity$.subscribe((activity) => received.push(activity));
    try {
      await new Promise<string>((resolve, reject) =>
        client
          .postActivity({ type: 'message', from: { id: 'user-1' }, text: 'hello' })
          .subscribe(resolve, reject),
      );
      await waitFor(
        () => (received.filter((activity) => activity.from.role === 'bot').length >= 3 ? true : undefined),
        'three bot activities',
      );
      return received;
    } finally {
      subscription.unsubscribe();
      client.end();
    }
  }

  function expectTheThreeReplies(received: DirectLineActivity[], bot: PlatformBot): void {
    const fromBot = received.filter((activity) => activity.from.role === 'bot') as Array<
      DirectLineActivity & {
        text?: string;
        attachments?: Array<{ contentType: string }>;
        attachmentLayout?: string;
      }
    >;
    expect(fromBot.map((activity) => activity.from.id)).toEqual([bot.id, bot.id, bot.id]);
    expect(fromBot[0]?.text).toBe('you said hello');
    expect(fromBot[1]?.attachmentLayout).toBe('carousel');
    expect(fromBot[1]?.attachments?.map((attachment) => attachment.contentType)).toEqual([
      'application/vnd.microsoft.card.hero',
      'application/vnd.microsoft.card.hero',
    ]);
    expect(fromBot[2]?.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.thumbnail');
    for (const activity of fromBot) expect(activity.id).toMatch(/\|\d{7}$/);
  }

  it('managed identity: the bot validates our token and its replies reach the client over WebSocket', async () => {
    const received = await converse(msiBot);
    expectTheThreeReplies(received, msiBot);
    expect(msiAuthorization.at(-1)).toMatch(/^Bearer ey/);
  });

  it('msal with known-authority metadata: the same round trip', async () => {
    const received = await converse(msalBot);
    expectTheThreeReplies(received, msalBot);
    expect(msalAuthorization.at(-1)).toMatch(/^Bearer ey/);
  });

  it('anonymous: no Authorization either way, and the replies reach the client', async () => {
    const received = await converse(anonymousBot);
    expectTheThreeReplies(received, anonymousBot);
    expect(anonymousAuthorization.every((header) => header === undefined)).toBe(true);
  });

  /** A conversation started through the relay with raw HTTP, for the failure statuses. */
  async function startConversation(bot: PlatformBot): Promise<{ id: string; token: string }> {
    const response = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bot.secret}` },
    });
    const body = (await response.json()) as { conversationId: string; token: string };
    return { id: body.conversationId, token: body.token };
  }

  async function send(
    bot: PlatformBot,
    text: string,
    activity: Record<string, unknown> = { type: 'message', text },
  ) {
    const conversation = await startConversation(bot);
    const response = await fetch(
      `${platform.relay.url}/v3/directline/conversations/${conversation.id}/activities`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${conversation.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ from: { id: 'user-1' }, ...activity }),
      },
    );
    return {
      conversation,
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it('the bot answers 500: the client’s POST gets 502 BotError', async () => {
    // CloudAdapter prints the bot's unhandled error to the console before answering 500.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { status, body } = await send(msiBot, 'fail');
    expect(status).toBe(502);
    expect(body).toMatchObject({ error: { code: 'BotError' }, httpStatusCode: 500 });
    quiet.mockRestore();
  });

  it("an invoke: the client's POST gets the bot's invoke response (status and body); 501 when it sets none", async () => {
    const answered = await send(msiBot, '', {
      type: 'invoke',
      name: 'inspection/lookup',
      value: { code: 'P-1' },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ found: true, code: 'P-1' });
    const unanswered = await send(msiBot, '', { type: 'invoke', name: 'unknown/operation' });
    expect(unanswered.status).toBe(501);
    expect(unanswered.body).toEqual({ id: expect.stringMatching(/\|\d{7}$/) });
  });

  it('the bot hangs past CONNECTOR_DELIVERY_TIMEOUT_MS: 504 BotError', async () => {
    const { status, body } = await send(msiBot, 'hang');
    expect(status).toBe(504);
    expect(body).toMatchObject({ error: { code: 'BotError' } });
  });

  it('an invalid card from the bot: 400 BadArgument naming the path, thrown in the bot', async () => {
    const before = botErrors.length;
    const { status } = await send(msiBot, 'bad card');
    expect(status).toBe(200);
    const [error] = botErrors.slice(before) as Array<{ statusCode?: number; message: string }>;
    expect(error?.statusCode).toBe(400);
    expect(error?.message).toContain('attachments[0].content.buttons[0].value');
  });

  it('a token for another bot’s conversation: 403; no token: 401; unknown conversation: 404', async () => {
    const { conversation } = await send(msiBot, 'hello');
    const token = await requestToken(platform.connector, {
      grant_type: 'client_credentials',
      client_id: otherBot.appId,
      client_secret: 'other-bot-password-1',
      scope: SCOPE,
    });
    const post = (conversationId: string, authorization?: string) =>
      fetch(`${platform.connector.url}/v3/conversations/${encodeURIComponent(conversationId)}/activities`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(authorization !== undefined && { Authorization: authorization }),
        },
        body: JSON.stringify({ type: 'message', text: 'intruding' }),
      });
    const forbidden = await post(conversation.id, `Bearer ${String(token.body.access_token)}`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-correlating-operationid')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post(conversation.id)).status).toBe(401);
    const unknown = await post('no-such-conversation', `Bearer ${String(token.body.access_token)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'BadArgument' } });
  });
});
