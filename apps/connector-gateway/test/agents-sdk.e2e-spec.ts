import { waitFor } from '@fieldops/testing';
import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe).
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import type { AgentApplication, TurnContext, TurnState } from '@microsoft/agents-hosting';
import { DirectLine } from 'botframework-directlinejs';
import jwt from 'jsonwebtoken';
import { BotTokenMinter } from '../src';
import { loadAgentsSdk, startMsalBot } from './support/bot-stacks';
import { decodeJwt, RESOURCE } from './support/gateway';
import { rsaKeyPair } from './support/keys';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

type ConversationReference = ReturnType<TurnContext['activity']['getConversationReference']>;

/** An activity as the client receives it (update and delete arrive as `messageUpdate` / `messageDelete`). */
type Received = {
  type: string;
  id?: string;
  from: { id: string; role?: string };
  conversation?: { id: string };
  text?: string;
  replyToId?: string;
  attachments?: Array<{ contentType: string; name?: string; contentUrl?: string; content?: unknown }>;
  entities?: Array<{ type: string; streamType?: string; streamId?: string; streamSequence?: number }>;
};

const AGENT_IDENTITY_HEADER = 'agent-own-identity-header-0001';

describe('a stock Agents SDK agent and a stock botbuilder bot on one platform, authentication on', () => {
  const agentServer = new LateBoundServer();
  const classicServer = new LateBoundServer();
  // Where the client's file comes from: DirectLineJS downloads an attachment's contentUrl and uploads it.
  const fileServer = new LateBoundServer();
  // The Agents SDK agent: `sdk: agents` and its own identity header (authType=SystemManagedIdentity).
  const agent: PlatformBot = {
    id: 'agent',
    appId: 'agent-app-id',
    secret: 'agent-directline-secret-0001',
    credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`],
    endpoint: agentServer,
  };
  const classic: PlatformBot = {
    id: 'classic-bot',
    appId: 'classic-bot-app-id',
    secret: 'classic-bot-directline-secret-01',
    credentials: ['appPassword: classic-bot-password-1'],
    endpoint: classicServer,
  };
  const agentAuthorization: Array<string | undefined> = [];
  const classicAuthorization: Array<string | undefined> = [];
  const references: ConversationReference[] = [];
  const agentErrors: unknown[] = [];
  let platform: RunningPlatform;
  let restoreEnvironment: () => void;
  let application: AgentApplication<TurnState>;

  beforeAll(async () => {
    await Promise.all([agentServer.start(), classicServer.start(), fileServer.start()]);
    fileServer.handler = (_request, response) =>
      response.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
    platform = await startPlatform([agent, classic]);
    const gateway = platform.connector.url;
    // The agent's whole configuration: the SDK's own environment variables ("Agents SDK bot, no cloud").
    const sdk = await loadAgentsSdk(gateway, { appId: agent.appId, identityHeader: AGENT_IDENTITY_HEADER });
    restoreEnvironment = sdk.restore;
    const { hosting } = sdk;
    const { AgentApplication, CardFactory, MessageFactory } = hosting;
    application = new AgentApplication<TurnState>();
    application.onActivity('message', async (context: TurnContext) => {
      const text = context.activity.text ?? '';
      try {
        switch (text) {
          case 'card':
            await context.sendActivity(
              MessageFactory.attachment(
                CardFactory.heroCard(
                  'Agent card',
                  'from the Agents SDK',
                  [],
                  [{ type: 'imBack', title: 'Say hi', value: 'hi' }],
                ),
              ),
            );
            return;
          case 'edit': {
            const sent = await context.sendActivity('draft');
            const update = MessageFactory.text('edited');
            update.id = sent?.id;
            await context.updateActivity(update);
            return;
          }
          case 'delete': {
            const sent = await context.sendActivity('short-lived');
            await context.deleteActivity(sent?.id ?? '');
            await context.sendActivity('deleted');
            return;
          }
          case 'later':
            references.push(context.activity.getConversationReference());
            await context.sendActivity('noted');
            return;
          case 'stream': {
            const stream = context.streamingResponse;
            stream.queueInformativeUpdate('thinking');
            // As a model's tokens arrive: each chunk goes out before the next is generated (a state, not a delay).
            for (const chunk of ['Once ', 'upon ', 'a time']) {
              const sent = stream.updatesSent;
              stream.queueTextChunk(chunk);
              await waitFor(() => (stream.updatesSent > sent ? true : undefined), 'the chunk taken', 20_000);
            }
            await stream.endStream();
            return;
          }
          case 'file': {
            const attachments = context.activity.attachments ?? [];
            await context.sendActivity(
              `got ${attachments.map((attachment) => `${attachment.name} (${attachment.contentType})`).join(', ')}`,
            );
            const conversationId = context.activity.conversation?.id ?? '';
            const uploaded = await context.uploadAttachment(conversationId, {
              type: 'text/plain',
              name: 'report.txt',
              originalBase64: Buffer.from('agent report'),
              thumbnailBase64: new Uint8Array(),
            });
            const info = await context.getAttachmentInfo(uploaded.id);
            await context.sendActivity(
              MessageFactory.contentUrl(
                `${context.activity.serviceUrl ?? ''}v3/attachments/${uploaded.id}/views/original`,
                info.type,
                info.name,
              ),
            );
            return;
          }
          default:
            await context.sendActivity(`agent echo: ${text}`);
        }
      } catch (error) {
        agentErrors.push(error);
        throw error;
      }
    });
    await sdk.serve(agentServer, application, agentAuthorization);

    // The botbuilder bot: recipe C of docs/protocols/bot-connector.md (msal with the gateway's metadata).
    await startMsalBot(
      classicServer,
      gateway,
      { appId: classic.appId, password: 'classic-bot-password-1' },
      async (context) => {
        if (context.activity.type === 'message')
          await context.sendActivity(`classic echo: ${context.activity.text ?? ''}`);
      },
      classicAuthorization,
    );
  });

  afterAll(async () => {
    restoreEnvironment();
    await platform.close();
    await Promise.all([agentServer.stop(), classicServer.stop(), fileServer.stop()]);
  });

  /** A DirectLineJS conversation with `bot`: sends `text`, collects activities until `done` says so. */
  async function converse(
    bot: PlatformBot,
    outgoing: Record<string, unknown>,
    done: (fromBot: Received[]) => boolean,
  ): Promise<{ fromBot: Received[]; client: DirectLine; conversationId: string; close: () => void }> {
    const client = new DirectLine({ secret: bot.secret, domain: `${platform.relay.url}/v3/directline` });
    const received: Received[] = [];
    const subscription = client.activity$.subscribe((activity) => received.push(activity));
    const close = () => {
      subscription.unsubscribe();
      client.end();
    };
    try {
      await new Promise<string>((resolve, reject) =>
        client
          .postActivity({ type: 'message', from: { id: 'user-1' }, ...outgoing })
          .subscribe(resolve, reject),
      );
      const fromBot = () => received.filter((activity) => activity.from.role === 'bot');
      await waitFor(() => (done(fromBot()) ? true : undefined), 'the bot’s activities', 15_000);
      const conversationId = received[0]?.conversation?.id ?? '';
      return { fromBot: fromBot(), client, conversationId, close };
    } catch (error) {
      close();
      throw error;
    }
  }

  it('each bot gets tokens with the issuer its SDK reads keys for, and both answer side by side', async () => {
    const [agentTurn, classicTurn] = await Promise.all([
      converse(agent, { text: 'hello' }, (activities) => activities.length >= 1),
      converse(classic, { text: 'hello' }, (activities) => activities.length >= 1),
    ]);
    agentTurn.close();
    classicTurn.close();
    expect(agentTurn.fromBot.map((activity) => [activity.from.id, activity.text])).toEqual([
      [agent.id, 'agent echo: hello'],
    ]);
    expect(classicTurn.fromBot.map((activity) => [activity.from.id, activity.text])).toEqual([
      [classic.id, 'classic echo: hello'],
    ]);
    const agentToken = decodeJwt((agentAuthorization.at(-1) ?? '').replace(/^Bearer /, '')).payload;
    const classicToken = decodeJwt((classicAuthorization.at(-1) ?? '').replace(/^Bearer /, '')).payload;
    expect(agentToken).toMatchObject({ iss: 'https://sts.windows.net/botframework.com/', aud: agent.appId });
    expect(classicToken).toMatchObject({ iss: 'https://api.botframework.com', aud: classic.appId });
  });

  it('a card, an update and a delete reach the client', async () => {
    const card = await converse(agent, { text: 'card' }, (activities) => activities.length >= 1);
    card.close();
    expect(card.fromBot[0]?.attachments?.[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.hero',
      content: { title: 'Agent card' },
    });
    const edit = await converse(agent, { text: 'edit' }, (activities) =>
      activities.some((activity) => activity.type === 'messageUpdate'),
    );
    edit.close();
    const draft = edit.fromBot.find((activity) => activity.text === 'draft');
    expect(edit.fromBot.find((activity) => activity.type === 'messageUpdate')).toMatchObject({
      text: 'edited',
      replyToId: draft?.id,
    });
    const deletion = await converse(agent, { text: 'delete' }, (activities) =>
      activities.some((activity) => activity.text === 'deleted'),
    );
    deletion.close();
    const shortLived = deletion.fromBot.find((activity) => activity.text === 'short-lived');
    expect(deletion.fromBot.find((activity) => activity.type === 'messageDelete')).toMatchObject({
      replyToId: shortLived?.id,
    });
    expect(agentErrors).toEqual([]);
  });

  it('a proactive message, sent outside any turn, reaches the conversation', async () => {
    const turn = await converse(agent, { text: 'later' }, (activities) => activities.length >= 1);
    try {
      const reference = references.at(-1);
      if (!reference) throw new Error('no conversation reference');
      await application.sendProactiveActivity(agent.appId, reference, 'proactive hello');
      const received: Received[] = [];
      const subscription = turn.client.activity$.subscribe((activity) => received.push(activity));
      await waitFor(
        () => (received.some((activity) => activity.text === 'proactive hello') ? true : undefined),
        'the proactive message',
        15_000,
      );
      subscription.unsubscribe();
    } finally {
      turn.close();
    }
  });

  it('livestreaming: typing chunks with one streamId over the WebSocket, then one final message', async () => {
    const turn = await converse(agent, { text: 'stream' }, (activities) =>
      activities.some((activity) => activity.type === 'message'),
    );
    turn.close();
    const typing = turn.fromBot.filter((activity) => activity.type === 'typing');
    const messages = turn.fromBot.filter((activity) => activity.type === 'message');
    expect(messages).toHaveLength(1);
    const [first, ...rest] = typing;
    if (!first) throw new Error('no typing activity');
    expect(first.entities?.[0]).toMatchObject({ type: 'streaminfo', streamType: 'informative' });
    expect(first.text).toBe('thinking');
    expect(rest.length).toBeGreaterThanOrEqual(1);
    for (const chunk of rest) {
      expect(chunk.entities?.[0]).toMatchObject({
        type: 'streaminfo',
        streamType: 'streaming',
        streamId: first.id,
      });
    }
    // Each chunk carries the text so far.
    for (const chunk of rest) expect('Once upon a time'.startsWith(chunk.text ?? '-')).toBe(true);
    expect(messages[0]?.text).toBe('Once upon a time');
    expect(messages[0]?.entities).toEqual(
      expect.arrayContaining([expect.objectContaining({ streamType: 'final', streamId: first.id })]),
    );
    // Typing is not replayed by polling: the conversation's history holds the final message only.
    const started = await fetch(
      `${platform.relay.url}/v3/directline/conversations/${encodeURIComponent(turn.conversationId)}/activities`,
      { headers: { Authorization: `Bearer ${agent.secret}` } },
    );
    const history = (await started.json()) as { activities: Received[] };
    expect(history.activities.filter((activity) => activity.type === 'typing')).toEqual([]);
    expect(history.activities.filter((activity) => activity.from.role === 'bot').map((a) => a.text)).toEqual([
      'Once upon a time',
    ]);
  });

  it('attachments: the agent reads the user’s and uploads its own through the connector', async () => {
    // Over Direct Line's REST API (DirectLineJS uploads attachments with browser APIs).
    const started = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.secret}` },
    });
    const conversation = (await started.json()) as { conversationId: string; token: string };
    const base = `${platform.relay.url}/v3/directline/conversations/${encodeURIComponent(conversation.conversationId)}`;
    const headers = { Authorization: `Bearer ${conversation.token}`, 'Content-Type': 'application/json' };
    const posted = await fetch(`${base}/activities`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'message',
        from: { id: 'user-1' },
        text: 'file',
        attachments: [{ contentType: 'image/png', contentUrl: `${fileServer.url}/p.png`, name: 'p.png' }],
      }),
    });
    expect(posted.status).toBe(200);
    const fromBot = await waitFor(
      async () => {
        const history = (await (await fetch(`${base}/activities`, { headers })).json()) as {
          activities: Received[];
        };
        const replies = history.activities.filter((activity) => activity.from.role === 'bot');
        return replies.length >= 2 ? replies : undefined;
      },
      'the agent’s two replies',
      15_000,
    );
    expect(fromBot[0]?.text).toBe('got p.png (image/png)');
    const file = fromBot[1]?.attachments?.[0];
    expect(file).toMatchObject({ contentType: 'text/plain', name: 'report.txt' });
    // The view is the connector's: read it with the agent's own token (its identity header, no client_id).
    const identity = await fetch(
      `${platform.connector.url}/msi/token?api-version=2019-08-01&resource=${encodeURIComponent(RESOURCE)}`,
      { headers: { 'X-IDENTITY-HEADER': AGENT_IDENTITY_HEADER } },
    );
    const { access_token: agentToken } = (await identity.json()) as { access_token: string };
    const view = await fetch(file?.contentUrl ?? '', { headers: { Authorization: `Bearer ${agentToken}` } });
    expect(await view.text()).toBe('agent report');
    expect(agentErrors).toEqual([]);
  });

  it('the agent’s own JWT middleware refuses tokens minted for another bot, forged ones and none', async () => {
    const minter = platform.connector.app.get(BotTokenMinter);
    const serviceUrl = `${platform.connector.url}/`;
    const activity = {
      type: 'message',
      id: 'a1',
      channelId: 'directline',
      serviceUrl,
      from: { id: 'user-1' },
      recipient: { id: agent.appId },
      conversation: { id: 'c1' },
      text: 'hi',
    };
    const post = (authorization?: string) =>
      fetch(`${agentServer.url}/api/messages`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(authorization !== undefined && { Authorization: authorization }),
        },
        body: JSON.stringify(activity),
      });
    const forClassic = minter.mint({ appId: classic.appId }, serviceUrl).token;
    expect((await post(`Bearer ${forClassic}`)).status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    const forged = jwt.sign(
      { iss: 'https://sts.windows.net/botframework.com/', aud: agent.appId, nbf: now, exp: now + 3600 },
      rsaKeyPair().privateKey,
      { algorithm: 'RS256', header: { alg: 'RS256', kid: 'test-key-1' } },
    );
    expect((await post(`Bearer ${forged}`)).status).toBe(401);
    expect((await post()).status).toBe(401);
    // The issuer the SDK's issuer check (validateIssuer) accepts is the agent's; botbuilder's is not served to it.
    expect(minter.issuerOf({ appId: agent.appId, sdk: 'agents' })).toBe(
      'https://sts.windows.net/botframework.com/',
    );
  });
});
