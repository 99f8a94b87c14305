import { type Activity } from '@fieldops/contracts';
import { auth, type Fixture, SECRET, startFixture, waitFor } from './support/relay-harness';

interface Started {
  conversationId: string;
  token: string;
}

describe('uploads', () => {
  let fixture: Fixture;
  let started: Started;

  beforeAll(async () => {
    fixture = await startFixture({ RELAY_MAX_UPLOAD_BYTES: '65536' });
    started = (await (
      await fetch(`${fixture.base}/conversations`, { method: 'POST', headers: auth(SECRET) })
    ).json()) as Started;
  });
  afterAll(() => fixture.close());

  function uploadUrl(userId = 'u1'): string {
    return `${fixture.base}/conversations/${started.conversationId}/upload?userId=${userId}`;
  }

  async function lastBotMessage(): Promise<Activity> {
    return waitFor(
      () =>
        fixture.bot
          .messages(started.conversationId)
          .filter((activity) => activity.type === 'message')
          .at(-1),
      'the upload at the bot',
    );
  }

  it('accepts a single file and gives the bot a contentUrl it can download', async () => {
    const response = await fetch(uploadUrl(), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${started.token}`,
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; name="file"; filename="pic.png"',
      },
      body: Buffer.from([137, 80, 78, 71, 1, 2, 3]),
    });
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    const received = await lastBotMessage();
    expect(received).toMatchObject({
      id,
      from: { id: 'u1' },
      attachments: [{ contentType: 'image/png', name: 'pic.png' }],
    });
    const download = await fetch(received.attachments![0].contentUrl!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from([137, 80, 78, 71, 1, 2, 3]));
    const forged = await fetch(received.attachments![0].contentUrl!.replace(/t=.*/, 't=nope'));
    expect(forged.status).toBe(403);
  });

  it('accepts multipart as DirectLineJS sends it: the activity part has a filename, the files follow', async () => {
    const form = new FormData();
    form.append(
      'activity',
      new Blob(
        [JSON.stringify({ type: 'message', from: { id: 'u1' }, text: 'two files', channelData: { k: 1 } })],
        {
          type: 'application/vnd.microsoft.activity',
        },
      ),
      'blob',
    );
    form.append('file', new Blob(['hello file'], { type: 'text/plain' }), 'a.txt');
    form.append('file', new Blob(['{"x":1}'], { type: 'application/json' }), 'b.json');
    const response = await fetch(uploadUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${started.token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    const received = await lastBotMessage();
    expect(received).toMatchObject({ text: 'two files', channelData: { k: 1 } });
    expect(received.attachments?.map((attachment) => [attachment.name, attachment.contentType])).toEqual([
      ['a.txt', 'text/plain'],
      ['b.json', 'application/json'],
    ]);
    expect(await (await fetch(received.attachments![0].contentUrl!)).text()).toBe('hello file');
  });

  it('requires userId and refuses bodies over the limit with 413 MessageSizeTooBig', async () => {
    const noUser = await fetch(`${fixture.base}/conversations/${started.conversationId}/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${started.token}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(noUser.status).toBe(400);
    expect(((await noUser.json()) as { error: { code: string } }).error.code).toBe('MissingProperty');
    const big = await fetch(uploadUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${started.token}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(70_000),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
  });
});
