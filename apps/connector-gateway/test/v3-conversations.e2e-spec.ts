import { randomUUID } from 'node:crypto';
import { type ActivityEnvelope } from '@fieldops/contracts';
import { ACTIVITY_BUS, type ActivityBus } from '@fieldops/bus';
import { requestToken, SCOPE } from './support/gateway';
import { LateBoundServer, type PlatformBot, type RunningPlatform, startPlatform } from './support/platform';

/** The `/v3` API as bots call it, over real HTTP, against the store and bus the relay shares. */
describe('connector-gateway /v3/conversations', () => {
  const endpoint = new LateBoundServer();
  const bot: PlatformBot = {
    id: 'api-bot',
    appId: 'api-bot-app-id',
    secret: 'api-bot-directline-secret-01',
    credentials: ['appPassword: api-bot-password-1'],
    endpoint,
  };
  const anonymous: PlatformBot = {
    id: 'anon-api-bot',
    appId: 'anon-api-bot-app-id',
    secret: 'anon-api-bot-directline-secret-1',
    credentials: ['anonymous: true'],
    endpoint,
  };
  let platform: RunningPlatform;
  let token: string;

  beforeAll(async () => {
    await endpoint.start();
    endpoint.handler = (_request, response) => response.writeHead(200).end();
    platform = await startPlatform([bot, anonymous]);
    const issued = await requestToken(platform.connector, {
      grant_type: 'client_credentials',
      client_id: bot.appId,
      client_secret: 'api-bot-password-1',
      scope: SCOPE,
    });
    token = String(issued.body.access_token);
  });
  afterAll(async () => {
    await platform.close();
    await endpoint.stop();
  });

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    authorization: string | null = `Bearer ${token}`,
  ): Promise<{ status: number; body: unknown; headers: Headers }> => {
    const response = await fetch(`${platform.connector.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        ...(authorization !== null && { Authorization: authorization }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: response.headers,
    };
  };

  /** A conversation of `who` started through the relay, as a client would. */
  async function clientConversation(who: PlatformBot): Promise<string> {
    const response = await fetch(`${platform.relay.url}/v3/directline/conversations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.secret}` },
    });
    return ((await response.json()) as { conversationId: string }).conversationId;
  }

  it('SendToConversation and ReplyToActivity answer the stamped id and publish on the bus', async () => {
    const conversationId = await clientConversation(bot);
    const bus = platform.relay.app.get<ActivityBus>(ACTIVITY_BUS);
    const seen: ActivityEnvelope[] = [];
    const subscription = await bus.subscribe(conversationId, (envelope) => seen.push(envelope));
    const sent = await call('POST', `/v3/conversations/${conversationId}/activities`, {
      type: 'message',
      id: 'ignored',
      text: 'proactive',
    });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-correlating-operationid')).toBeTruthy();
    const sentId = (sent.body as { id: string }).id;
    expect(sentId).toMatch(new RegExp(`^${conversationId}\\|\\d{7}$`));
    const replied = await call(
      'POST',
      `/v3/conversations/${conversationId}/activities/${encodeURIComponent(sentId)}`,
      {
        type: 'message',
        text: 'reply',
      },
    );
    expect(replied.status).toBe(200);
    for (let i = 0; i < 200 && seen.length < 2; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await subscription.unsubscribe();
    expect(seen.map((envelope) => envelope.activity.id)).toEqual([
      sentId,
      (replied.body as { id: string }).id,
    ]);
    expect(seen[1]?.activity).toMatchObject({
      replyToId: sentId,
      from: { id: bot.id, role: 'bot' },
      channelId: 'directline',
      conversation: { id: conversationId },
    });
  });

  it('updates and deletes its own activities (appended as messageUpdate / messageDelete), 404 for unknown ids', async () => {
    const conversationId = await clientConversation(bot);
    const base = `/v3/conversations/${conversationId}/activities`;
    const { id } = (await call('POST', base, { type: 'message', text: 'v1' })).body as { id: string };
    const updated = await call('PUT', `${base}/${encodeURIComponent(id)}`, { type: 'message', text: 'v2' });
    expect(updated).toMatchObject({ status: 200, body: { id } });
    expect((await call('DELETE', `${base}/${encodeURIComponent(id)}`)).status).toBe(200);
    const missing = await call('DELETE', `${base}/${encodeURIComponent(`${conversationId}|0000099`)}`);
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'BadArgument' } } });
    const mismatch = await call('PUT', `${base}/${encodeURIComponent(id)}`, { type: 'message', id: 'other' });
    expect(mismatch.status).toBe(400);
  });

  it('lists members and activity members', async () => {
    const conversationId = await clientConversation(bot);
    const { id } = (await call('POST', `/v3/conversations/${conversationId}/activities`, { type: 'message' }))
      .body as { id: string };
    const members = await call('GET', `/v3/conversations/${conversationId}/members`);
    expect(members.status).toBe(200);
    expect(members.body).toEqual(expect.arrayContaining([{ id: bot.id, name: bot.id, role: 'bot' }]));
    const activityMembers = await call(
      'GET',
      `/v3/conversations/${conversationId}/activities/${encodeURIComponent(id)}/members`,
    );
    expect(activityMembers.body).toEqual(members.body);
  });

  it('creates a conversation (201 ConversationResourceResponse) and takes history', async () => {
    const created = await call('POST', '/v3/conversations', {
      bot: { id: bot.id },
      members: [{ id: 'user-9', name: 'Nine' }],
      activity: { type: 'message', text: 'hello there' },
    });
    expect(created.status).toBe(201);
    const { id, activityId, serviceUrl } = created.body as {
      id: string;
      activityId: string;
      serviceUrl: string;
    };
    expect(activityId).toBe(`${id}|0000000`);
    expect(serviceUrl).toBe(`${platform.connector.url}/`);
    const history = await call('POST', `/v3/conversations/${id}/activities/history`, {
      activities: [
        { type: 'message', id: 'h1', text: 'old one' },
        { type: 'message', id: 'h2', text: 'old two' },
      ],
    });
    expect(history).toMatchObject({ status: 200, body: { id: 'Processed 2 of 2 activities successfully.' } });
    expect((await call('GET', `/v3/conversations/${id}/members`)).body).toEqual(
      expect.arrayContaining([{ id: 'user-9', name: 'Nine', role: 'user' }]),
    );
  });

  it("answers a conversation with one user with that user's home conversation, as Teams does for 1:1 chats", async () => {
    const create = (members?: unknown[]) =>
      call('POST', '/v3/conversations', {
        bot: { id: bot.id },
        ...(members && { members }),
        activity: { type: 'message', text: 'proactive' },
      });
    const first = (await create([{ id: 'user-home', name: 'Home' }])).body as {
      id: string;
      activityId: string;
    };
    const again = await create([{ id: 'user-home' }]);
    expect(again.status).toBe(201);
    const second = again.body as { id: string; activityId: string };
    expect(second.id).toBe(first.id);
    expect(second.activityId).toBe(`${first.id}|0000001`);
    const other = (await create([{ id: 'user-other' }])).body as { id: string };
    expect(other.id).not.toBe(first.id);
    const [none1, none2] = [(await create()).body, (await create()).body] as Array<{ id: string }>;
    expect(none1.id).not.toBe(none2.id);
    expect((await call('GET', `/v3/conversations/${first.id}/members`)).body).toEqual(
      expect.arrayContaining([{ id: 'user-home', name: 'Home', role: 'user' }]),
    );
  });

  it('uploads attachments and serves their info and original view', async () => {
    const conversationId = await clientConversation(bot);
    const uploaded = await call('POST', `/v3/conversations/${conversationId}/attachments`, {
      type: 'text/plain',
      name: 'note.txt',
      originalBase64: Buffer.from('hello file').toString('base64'),
    });
    expect(uploaded.status).toBe(200);
    const { id } = uploaded.body as { id: string };
    const info = await call('GET', `/v3/attachments/${id}`);
    expect(info.body).toEqual({
      name: 'note.txt',
      type: 'text/plain',
      views: [{ viewId: 'original', size: 10 }],
    });
    const view = await fetch(`${platform.connector.url}/v3/attachments/${id}/views/original`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(view.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await view.text()).toBe('hello file');
    expect((await call('GET', `/v3/attachments/${id}/views/thumbnail`)).status).toBe(404);
    expect((await call('GET', `/v3/attachments/${id}`, undefined, null)).status).toBe(401);
    expect(
      (await call('POST', `/v3/conversations/${conversationId}/attachments`, { name: 'x' })).body,
    ).toMatchObject({
      error: { code: 'MissingProperty' },
    });
  });

  it('validates activities: 400 BadArgument naming the path, 413 MessageSizeTooBig above 256 KB', async () => {
    const conversationId = await clientConversation(bot);
    const path = `/v3/conversations/${conversationId}/activities`;
    const bad = await call('POST', path, {
      type: 'message',
      attachmentLayout: 'grid',
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { code: 'BadArgument', message: expect.stringContaining('attachmentLayout') } },
    });
    const big = await call('POST', path, { type: 'message', text: 'x'.repeat(300_000) });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'MessageSizeTooBig' } } });
  });

  it('lets anonymous calls through only for conversations of an anonymous bot; a bad header is still 401', async () => {
    const anonymousConversation = await clientConversation(anonymous);
    const ok = await call(
      'POST',
      `/v3/conversations/${anonymousConversation}/activities`,
      { type: 'message' },
      null,
    );
    expect(ok.status).toBe(200);
    const bad = await call(
      'POST',
      `/v3/conversations/${anonymousConversation}/activities`,
      { type: 'message' },
      'Bearer nope',
    );
    expect(bad.status).toBe(401);
    const own = await clientConversation(bot);
    expect(
      (await call('POST', `/v3/conversations/${own}/activities`, { type: 'message' }, null)).status,
    ).toBe(401);
    expect((await call('GET', `/v3/conversations/${randomUUID()}/members`, undefined, null)).status).toBe(
      401,
    );
    // The anonymous bot's conversation with a token of another bot: 403.
    expect(
      (await call('POST', `/v3/conversations/${anonymousConversation}/activities`, { type: 'message' }))
        .status,
    ).toBe(403);
  });
});
