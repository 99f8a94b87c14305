import { waitFor } from '@fieldops/testing';
import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe).
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import type { AgentApplication, TurnContext, TurnState } from '@microsoft/agents-hosting';
import { DirectLine } from 'botframework-directlinejs';
import { loadAgentsSdk } from './support/bot-stacks';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

type ConversationReference = ReturnType<TurnContext['activity']['getConversationReference']>;

/** An activity as a DirectLineJS client receives it. */
interface Received {
  type: string;
  id?: string;
  from: { id: string; role?: string };
  conversation?: { id: string };
  text?: string;
  attachments?: Array<{ contentType: string; content?: unknown }>;
  entities?: Array<{ type: string; streamType?: string; streamId?: string }>;
}

const AGENT_IDENTITY_HEADER = 'two-relays-agent-identity-header-01';
const STORY = ['Once ', 'upon ', 'a time'];

describe('a stock Agents SDK agent behind two relay instances on Redis (authentication on)', () => {
  const agentServer = new LateBoundServer();
  const agent: PlatformBot = {
    id: 'two-relays-agent',
    appId: 'two-relays-agent-app-id',
    secret: 'two-relays-agent-directline-secret',
    credentials: ['sdk: agents', `identityHeader: ${AGENT_IDENTITY_HEADER}`],
    endpoint: agentServer,
  };
  /** The conversation reference of each conversation's `later`, by the user who asked. */
  const references = new Map<string, ConversationReference>();
  const agentErrors: unknown[] = [];
  let platform: RunningPlatform;
  let application: AgentApplication<TurnState>;
  let restoreEnvironment: () => void = () => undefined;

  beforeAll(async () => {
    await agentServer.start();
    // The same platform as production scales it: one connector, two relays, each with its own Redis clients.
    platform = await startPlatform([agent], {}, process.env.REDIS_URL, 2);
    const sdk = await loadAgentsSdk(platform.connector.url, {
      appId: agent.appId,
      identityHeader: AGENT_IDENTITY_HEADER,
    });
    restoreEnvironment = sdk.restore;
    const { AgentApplication, CardFactory, MessageFactory } = sdk.hosting;
    application = new AgentApplication<TurnState>();
    application.onActivity('message', async (context: TurnContext) => {
      const text = context.activity.text ?? '';
      const user = context.activity.from?.id ?? '';
      try {
        if (text === 'card') {
          await context.sendActivity(
            MessageFactory.attachment(CardFactory.heroCard(`Card for ${user}`, 'from the Agents SDK')),
          );
        } else if (text === 'later') {
          references.set(user, context.activity.getConversationReference());
          await context.sendActivity(`noted for ${user}`);
        } else if (text === 'stream') {
          const stream = context.streamingResponse;
          stream.queueInformativeUpdate(`thinking for ${user}`);
          // As a model's tokens arrive: each chunk goes out before the next is generated (a state, not a delay).
          for (const chunk of STORY) {
            const sent = stream.updatesSent;
            stream.queueTextChunk(chunk);
            await waitFor(() => (stream.updatesSent > sent ? true : undefined), 'the chunk taken', 20_000);
          }
          await stream.endStream();
        } else {
          await context.sendActivity(`echo for ${user}: ${text}`);
        }
      } catch (error) {
        agentErrors.push(error);
        throw error;
      }
    });
    await sdk.serve(agentServer, application);
  }, 60_000);

  afterAll(async () => {
    restoreEnvironment();
    await platform?.close();
    await agentServer.stop();
  });

  /** A DirectLineJS client of `user` on relay instance `relayIndex`, collecting everything it receives. */
  function connect(relayIndex: number, user: string) {
    const client = new DirectLine({
      secret: agent.secret,
      domain: `${platform.relays[relayIndex].url}/v3/directline`,
    });
    const received: Received[] = [];
    const subscription = client.activity$.subscribe((activity) => received.push(activity));
    const fromBot = () => received.filter((activity) => activity.from.role === 'bot');
    return {
      user,
      received,
      fromBot,
      send: (text: string) =>
        new Promise<string>((resolve, reject) =>
          client.postActivity({ type: 'message', from: { id: user }, text }).subscribe(resolve, reject),
        ),
      /** Waits until a bot activity satisfies `test`. */
      until: (what: string, test: (activity: Received) => boolean) =>
        waitFor(() => fromBot().find(test), `${user}: ${what}`, 20_000),
      close: () => {
        subscription.unsubscribe();
        client.end();
      },
    };
  }

  /** Echo, card, streamed answer and a `later` for the proactive send, in that order, as `client`'s user. */
  async function turns(client: ReturnType<typeof connect>): Promise<void> {
    await client.send('hello');
    await client.until('the echo', (activity) => activity.text === `echo for ${client.user}: hello`);
    await client.send('card');
    await client.until('the card', (activity) => activity.attachments?.[0] !== undefined);
    await client.send('stream');
    await client.until(
      'the streamed answer',
      (activity) => activity.type === 'message' && activity.text === STORY.join(''),
    );
    await client.send('later');
    await client.until('noted', (activity) => activity.text === `noted for ${client.user}`);
  }

  it('echo, a card, a streamed answer and a proactive send reach the right client on each relay, once', async () => {
    const ann = connect(0, 'dl_ann');
    const bob = connect(1, 'dl_bob');
    try {
      await Promise.all([turns(ann), turns(bob)]);
      // Proactive sends, outside any turn, to each conversation: through the connector, the store and the bus.
      for (const client of [ann, bob]) {
        const reference = references.get(client.user);
        if (!reference) throw new Error(`no conversation reference for ${client.user}`);
        await application.sendProactiveActivity(agent.appId, reference, `proactive for ${client.user}`);
      }
      await Promise.all(
        [ann, bob].map((client) =>
          client.until(
            'the proactive message',
            (activity) => activity.text === `proactive for ${client.user}`,
          ),
        ),
      );
      // A last echo after everything: whatever was to arrive twice or at the wrong client has had its chance.
      await Promise.all([ann.send('last'), bob.send('last')]);
      await Promise.all(
        [ann, bob].map((client) =>
          client.until('the last echo', (activity) => activity.text === `echo for ${client.user}: last`),
        ),
      );

      const [annConversation, bobConversation] = [ann, bob].map(
        (client) => client.received[0]?.conversation?.id,
      );
      expect(annConversation).toBeTruthy();
      expect(annConversation).not.toBe(bobConversation);
      for (const client of [ann, bob]) {
        const conversationId = client === ann ? annConversation : bobConversation;
        const other = client === ann ? bob.user : ann.user;
        // Everything is its own conversation's, nothing is the other user's, and no activity arrived twice.
        expect(client.received.every((activity) => activity.conversation?.id === conversationId)).toBe(true);
        expect(client.received.filter((activity) => activity.text?.includes(other))).toEqual([]);
        const ids = client.received.map((activity) => activity.id);
        expect(new Set(ids).size).toBe(ids.length);
        const messages = client.fromBot().filter((activity) => activity.type === 'message');
        expect(messages.map((activity) => activity.text ?? activity.attachments?.[0]?.contentType)).toEqual([
          `echo for ${client.user}: hello`,
          'application/vnd.microsoft.card.hero',
          STORY.join(''),
          `noted for ${client.user}`,
          `proactive for ${client.user}`,
          `echo for ${client.user}: last`,
        ]);
        expect(messages[1]?.attachments?.[0]?.content).toMatchObject({ title: `Card for ${client.user}` });
        // The streamed answer: typing over the WebSocket with one streamId, then the one final message.
        const typing = client.fromBot().filter((activity) => activity.type === 'typing');
        const [informative, ...chunks] = typing;
        expect(informative?.text).toBe(`thinking for ${client.user}`);
        expect(chunks.length).toBeGreaterThanOrEqual(1);
        for (const chunk of chunks)
          expect(chunk.entities?.[0]).toMatchObject({ streamType: 'streaming', streamId: informative?.id });
        expect(messages[2]?.entities).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ streamType: 'final', streamId: informative?.id }),
          ]),
        );
      }
      expect(agentErrors).toEqual([]);
    } finally {
      ann.close();
      bob.close();
    }
  }, 120_000);
});
