import { StreamService } from '../src';
import { TokenIssuer } from '../src/direct-line/token-issuer';
import { ConnectionStatus, fetchAjax, RecordingClient } from '@fieldops/testing/directline-client';
import { auth, botSays, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

interface TokenBody {
  conversationId: string;
  token: string;
  expires_in: number;
  streamUrl?: string;
}

describe('the stock botframework-directlinejs client', () => {
  let fixture: Fixture;
  const clients: RecordingClient[] = [];

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.end();
  });
  afterAll(() => fixture.close());

  function connect(options: ConstructorParameters<typeof RecordingClient>[0]): RecordingClient {
    const client = new RecordingClient({ domain: fixture.base, pollingInterval: 200, ...options });
    clients.push(client);
    return client;
  }

  async function generate(userId?: string): Promise<TokenBody> {
    const response = await fetch(`${fixture.base}/tokens/generate`, {
      method: 'POST',
      headers: auth(SECRET),
      body: JSON.stringify(userId ? { user: { id: userId } } : {}),
    });
    return (await response.json()) as TokenBody;
  }

  describe.each([
    ['WebSocket', true],
    ['polling', false],
  ])('over %s', (_transport, webSocket) => {
    it('round-trips: the echo carries the POST id and the embedded user id, then the bot reply arrives', async () => {
      const { token } = await generate('dl_user_1');
      const client = connect({ token, webSocket });
      const id = await client.post({
        type: 'message',
        from: { id: 'spoofed' },
        text: 'hello',
        channelData: { clientActivityID: 'client-1' },
      });
      expect(id).toMatch(/\|0000000$/);
      await waitFor(() => client.activities.length >= 2, 'echo and reply');
      const [echo, reply] = client.activities;
      expect(echo).toMatchObject({
        id,
        from: { id: 'dl_user_1' },
        channelData: { clientActivityID: 'client-1' },
      });
      expect(reply).toMatchObject({ text: 'echo: hello', replyToId: id });
      expect(client.statuses).toContain(ConnectionStatus.Online);
      expect(client.ids()).toEqual([...new Set(client.ids())]);
    });

    it('resumes with conversationId and watermark, receiving only what came after it', async () => {
      const { token, conversationId } = await generate('dl_user_2');
      const first = connect({ token, webSocket });
      await first.post({ type: 'message', from: { id: 'x' }, text: 'one' });
      await waitFor(() => first.activities.length >= 2, 'first exchange');
      first.end();
      await botSays(fixture.relay, conversationId, 'while away');

      const resumed = connect({ token, conversationId, watermark: '1', webSocket });
      await waitFor(() => resumed.activities.length >= 1, 'the missed activity');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(resumed.texts()).toEqual(['while away']);
    });
  });

  it('after a server-side socket close, reconnects with its watermark and receives the gap exactly once', async () => {
    const { token, conversationId } = await generate('dl_user_3');
    const client = connect({ token, webSocket: true, random: () => 0 });
    await client.post({ type: 'message', from: { id: 'x' }, text: 'before' });
    await waitFor(() => client.activities.length >= 2, 'first exchange');

    expect(fixture.relay.app.get(StreamService).closeConversationStreams(conversationId)).toBe(1);
    await botSays(fixture.relay, conversationId, 'in the gap');
    await waitFor(() => client.activities.length >= 3, 'the gap activity after the reconnect', 15_000);
    await botSays(fixture.relay, conversationId, 'live again');
    await waitFor(() => client.activities.length >= 4, 'a live activity after the reconnect');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.texts()).toEqual(['before', 'echo: before', 'in the gap', 'live again']);
  }, 30_000);

  it('uploads attachments with postActivity (multipart through the ajax service): the bot downloads them', async () => {
    const { token, conversationId } = await generate('dl_user_6');
    const client = connect({ token, webSocket: true, ajax: fetchAjax });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const id = await client.post({
      type: 'message',
      from: { id: 'dl_user_6' },
      text: 'a photo and a note',
      attachments: [
        {
          contentType: 'image/png',
          contentUrl: `data:image/png;base64,${png.toString('base64')}`,
          name: 'dot.png',
        },
        { contentType: 'text/plain', contentUrl: 'data:text/plain,hello%20file', name: 'note.txt' },
      ],
    });
    expect(id).toMatch(new RegExp(`^${conversationId}\\|\\d{7}$`));
    const received = await waitFor(
      () => fixture.bot.messages(conversationId).find((activity) => activity.id === id),
      'the upload at the bot',
    );
    expect(received.text).toBe('a photo and a note');
    expect(received.from?.id).toBe('dl_user_6');
    expect(received.attachments?.map((attachment) => [attachment.name, attachment.contentType])).toEqual([
      ['dot.png', 'image/png'],
      ['note.txt', 'text/plain'],
    ]);
    const photo = await fetch(received.attachments![0].contentUrl!);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(png);
    expect(await (await fetch(received.attachments![1].contentUrl!)).text()).toBe('hello file');
    await waitFor(() => client.activities.find((activity) => activity.id === id), 'the echo of the upload');
  });

  it("a home conversation: each new token's start announces the user to the bot once; a resume or a retried start does not", async () => {
    const userId = 'dl_home_1';
    const homeToken = async (): Promise<TokenBody> =>
      (await (
        await fetch(`${fixture.base}/tokens/generate`, {
          method: 'POST',
          headers: auth(SECRET),
          body: JSON.stringify({ user: { id: userId, name: 'Hana' }, homeConversation: true }),
        })
      ).json()) as TokenBody;
    const online = (client: RecordingClient) =>
      waitFor(() => client.statuses.includes(ConnectionStatus.Online), 'Online');
    const updates = (conversationId: string) =>
      fixture.bot.messages(conversationId).filter((activity) => activity.type === 'conversationUpdate');

    // The first opening starts the conversation: both members, as for any conversation.
    const first = await homeToken();
    const signIn = connect({ token: first.token, webSocket: true });
    await signIn.post({ type: 'message', from: { id: userId }, text: 'one' });
    await waitFor(() => signIn.texts().includes('echo: one'), 'the first exchange');
    const home = first.conversationId;
    expect(updates(home)).toHaveLength(1);
    expect(updates(home)[0]?.membersAdded?.map((member) => member.id)).toEqual(['test-bot', userId]);
    signIn.end();

    // A new sign-in (a new home token, the same conversation): the user joins again, with the start's locale, and
    // the history is there.
    const second = await homeToken();
    expect(second.conversationId).toBe(home);
    const again = connect({
      token: second.token,
      webSocket: true,
      conversationStartProperties: { locale: 'zh-CN' },
    });
    await waitFor(() => again.texts().includes('echo: one'), 'the history');
    expect(updates(home)).toHaveLength(2);
    expect(updates(home)[1]).toMatchObject({
      from: { id: userId, name: 'Hana', role: 'user' },
      membersAdded: [{ id: userId, name: 'Hana', role: 'user' }],
      locale: 'zh-CN',
      conversation: { id: home },
    });
    again.end();

    // A reload rejoins with the conversation id and watermark (GET …/conversations/{id}): no announcement.
    const resumed = connect({ token: second.token, conversationId: home, watermark: '1', webSocket: true });
    await online(resumed);
    await resumed.post({ type: 'message', from: { id: userId }, text: 'two' });
    await waitFor(() => resumed.texts().includes('echo: two'), 'the exchange after the resume');
    // The same opening started again (a retried start, or its refreshed token): 200, no announcement.
    const refreshed = (await (
      await fetch(`${fixture.base}/tokens/refresh`, { method: 'POST', headers: auth(second.token) })
    ).json()) as TokenBody;
    for (const token of [second.token, refreshed.token]) {
      const restart = await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(token) });
      expect(restart.status).toBe(200);
    }
    expect(updates(home)).toHaveLength(2);

    // A stock token for the same user (no homeConversation) is a new conversation, announced as ever.
    const stock = await generate(userId);
    expect(stock.conversationId).not.toBe(home);
  });

  it('refreshes its token through tokens/refresh', async () => {
    const { token, conversationId } = await generate('dl_user_4');
    const client = connect({ token, webSocket: false });
    await client.post({ type: 'message', from: { id: 'x' }, text: 'hi' });
    const refreshToken = (
      client.client as unknown as {
        refreshToken(): { subscribe(next: (t: string) => void, error: (e: unknown) => void): void };
      }
    ).refreshToken.bind(client.client);
    const refreshed = await new Promise<string>((resolve, reject) =>
      refreshToken().subscribe(resolve, reject),
    );
    expect(refreshed).not.toBe(token);
    const claims = JSON.parse(
      Buffer.from(refreshed.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({ conv: conversationId, user: 'dl_user_4' });
  });

  it('reports ExpiredToken for an expired token and recovers with a fresh one', async () => {
    const fresh = await generate('dl_user_5');
    const started = (await (
      await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(fresh.token) })
    ).json()) as TokenBody;
    const expired = fixture.relay.app.get(TokenIssuer).issue(
      {
        bot: 'test-bot',
        site: 'test-bot',
        conv: started.conversationId,
        scope: 'conversation',
        user: 'dl_user_5',
      },
      -10,
    ).token;
    const client = connect({
      token: expired,
      conversationId: started.conversationId,
      streamUrl: started.streamUrl,
      webSocket: false,
    });
    await waitFor(() => client.statuses.includes(ConnectionStatus.ExpiredToken), 'ExpiredToken');
    client.client.reconnect({
      conversationId: started.conversationId,
      token: fresh.token,
      streamUrl: started.streamUrl,
    });
    await waitFor(() => client.statuses.at(-1) === ConnectionStatus.Online, 'Online again');
    const id = await client.post({ type: 'message', from: { id: 'x' }, text: 'recovered' });
    expect(id).toContain(started.conversationId);
    await waitFor(() => client.texts().includes('echo: recovered'), 'the reply after recovery');
  });
});
