import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Activity, type ChannelAccount } from 'botbuilder';
import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type RunningService } from '@fieldops/platform';
import { type Device, InspectionApiClient, seedDemoInspectionData } from '../src';
import { BotHarness, textsOf } from './support/bot-harness';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const ACCOUNT = { username: 'inspection-bot', password: 'dialog-test-service-account' };
/** The inspector the tests chat as (a real inspection-api account; its user name becomes checked_by). */
const INSPECTOR = 'alice.inspector';

async function createAccount(
  client: InspectionApiClient,
  baseUrl: string,
  username: string,
): Promise<{ id: number }> {
  const response = await fetch(`${baseUrl}/api/users/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await client.accessToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `${username}-password-1`, role: 'inspector' }),
  });
  if (response.status !== 201) throw new Error(`user: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: number };
}

/** Stands in for the relay's attachment download URLs. */
function fileServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/photo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (request.url === '/not-an-image.png')
      response.writeHead(200, { 'content-type': 'image/png' }).end('text');
    else response.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('the inspection dialog (TestAdapter) against the real inspection-api', () => {
  let api: RunningService;
  let client: InspectionApiClient;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let files: { server: Server; url: string };
  let mediaRoot: string;
  let pump: Device;
  let extinguisher: Device;
  let aliceId: number;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'inspection_dialog');
    mediaRoot = mkdtempSync(join(tmpdir(), 'inspection-dialog-media-'));
    api = await startInspectionApi({
      environment: {
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        INSPECTION_MEDIA_ROOT: mediaRoot,
        INSPECTION_ADMIN_USERNAME: ACCOUNT.username,
        INSPECTION_ADMIN_PASSWORD: ACCOUNT.password,
      },
    });
    client = new InspectionApiClient({ baseUrl: api.url, ...ACCOUNT });
    await seedDemoInspectionData(client);
    pump = (await client.findDeviceByCode('PUMP-001')) as Device;
    extinguisher = (await client.findDeviceByCode('FE-010')) as Device;
    files = await fileServer();
    const alice = await createAccount(client, api.url, INSPECTOR);
    // The name a client sends is never used: only the verified id.
    BotHarness.from = { id: `dl_${alice.id}`, name: 'Typed By The Client' };
    aliceId = alice.id;
  });

  afterAll(async () => {
    files?.server.close();
    await api?.close();
    await database?.drop();
    rmSync(mediaRoot, { recursive: true, force: true });
  });

  const recordAnswer = (
    device: number,
    item: number,
    status: string,
    extra: Record<string, string> = {},
  ) => ({
    value: { action: 'record', device, item, status, value: '', note: '', ...extra },
  });

  describe('welcome', () => {
    it('greets each joining user by name, not the bot itself', async () => {
      const harness = new BotHarness(client);
      const replies = await harness.turn({
        type: 'conversationUpdate',
        membersAdded: [BotHarness.from, { id: 'bot', name: 'Inspection bot' }],
        recipient: { id: 'bot', name: 'Inspection bot' },
      });
      expect(textsOf(replies)).toEqual([
        expect.stringMatching(/^Hello alice\.inspector! I record inspections\./),
      ]);
    });

    it('speaks Simplified Chinese for a zh locale, or the locale the chat page asked for', async () => {
      const harness = new BotHarness(client, { pageLocaleOf: () => 'zh-CN' });
      const wang = await createAccount(client, api.url, 'wang.gong');
      const join: Partial<Activity> = {
        type: 'conversationUpdate',
        membersAdded: [{ id: `dl_${wang.id}`, name: '王工' }],
      };
      expect(textsOf(await harness.turn({ ...join, locale: undefined }))).toEqual([
        expect.stringMatching(/^wang\.gong，您好！/),
      ]);
      expect(textsOf(await new BotHarness(client).turn({ ...join, locale: 'zh-Hans' }))).toEqual([
        expect.stringMatching(/^wang\.gong，您好！/),
      ]);
      // An id of no account is not greeted by any name.
      expect(
        textsOf(
          await harness.turn({ ...join, membersAdded: [{ id: 'dl_424242', name: 'x' }], locale: undefined }),
        ),
      ).toEqual([expect.stringMatching(/^抱歉，找不到与此对话对应的有效巡检账号/)]);
    });
  });

  describe('devices and search', () => {
    it('"devices" shows typing, then a carousel of hero cards with name, code, location, group and a start button', async () => {
      const replies = await new BotHarness(client).turn({ text: 'devices' });
      expect(replies[0]?.type).toBe('typing');
      // The text is a message of its own (never squeezed beside the cards at 390 px).
      expect(replies[1]?.text).toBe('Devices (3). Choose one to start its check.');
      const carousel = replies[2];
      expect(carousel?.attachmentLayout).toBe('carousel');
      expect(carousel?.text).toBeUndefined();
      expect(carousel?.attachments).toHaveLength(3);
      expect(carousel?.attachments?.[0]).toEqual({
        contentType: 'application/vnd.microsoft.card.hero',
        content: {
          title: 'Cooling water pump 1',
          subtitle: 'Code PUMP-001',
          text: 'Location: Plant A, hall 2 · Group: pumps',
          buttons: [{ type: 'imBack', title: 'Start check', value: 'check PUMP-001' }],
        },
      });
    });

    it('a search term narrows the carousel; no match is said plainly', async () => {
      const harness = new BotHarness(client);
      const [, found] = await harness.say('compressor');
      expect(found?.attachments?.map((card) => (card.content as { title: string }).title)).toEqual([
        'Air compressor 2',
      ]);
      expect(textsOf(await harness.say('boiler'))).toEqual([
        'No device matches "boiler". Type "devices" to see them all.',
      ]);
    });

    it('in Chinese: "设备" lists the devices with translated texts', async () => {
      const [intro, carousel] = await new BotHarness(client).say('设备', { locale: 'zh-CN' });
      expect(intro?.text).toBe('设备（3）。请选择一台设备开始检查。');
      expect(
        (carousel?.attachments?.[0]?.content as { buttons: Array<{ title: string }> }).buttons[0]?.title,
      ).toBe('开始检查');
    });
  });

  describe('a device and its items', () => {
    it('"check <code>" answers one Adaptive Card per item with expected value, inputs and ok/warn/fail', async () => {
      const replies = await new BotHarness(client).turn({ text: 'check pump-001' });
      expect(replies[0]?.type).toBe('typing');
      expect(replies[1]?.text).toBe(
        'Cooling water pump 1 (PUMP-001): record a result for each item with the buttons.',
      );
      const message = replies[2];
      expect(message?.attachmentLayout).toBe('list');
      expect(message?.attachments).toHaveLength(3);
      const card = message?.attachments?.[0];
      expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
      expect(card?.content).toMatchObject({
        type: 'AdaptiveCard',
        version: '1.3',
        body: [
          { type: 'TextBlock', text: 'Outlet pressure' },
          { type: 'TextBlock', text: 'Expected: 2.5–3.0 bar' },
          { type: 'Input.Text', id: 'value', label: 'Measured value (optional)' },
          { type: 'Input.Text', id: 'note', label: 'Note (optional)' },
        ],
        // ok / warn / fail look different: positive, default and destructive actions.
        actions: (
          [
            ['ok', 'positive'],
            ['warn', 'default'],
            ['fail', 'destructive'],
          ] as const
        ).map(([status, style]) => ({
          type: 'Action.Submit',
          title: status,
          style,
          data: { action: 'record', device: pump.id, item: pump.check_items[0]?.id, status },
        })),
      });
    });

    it('a typed status without a card points to the card buttons', async () => {
      expect(textsOf(await new BotHarness(client).say('ok'))).toEqual([
        'Answer with the ok / warn / fail buttons of an item card: type "devices" and start a check.',
      ]);
    });

    it('an unknown code is said plainly', async () => {
      expect(textsOf(await new BotHarness(client).say('check NOPE-9'))).toEqual([
        'There is no device with the code "NOPE-9". Type "devices" to see them all.',
      ]);
    });
  });

  describe('recording answers and photos', () => {
    it('an answer creates a CheckRecord (status, value, note, checked_by, active plan); a photo then goes to it', async () => {
      const harness = new BotHarness(client);
      const item = pump.check_items[1];
      const replies = await harness.turn(
        recordAnswer(pump.id, item?.id ?? 0, 'warn', { value: '72 °C', note: 'runs hot' }),
      );
      expect(replies[0]?.type).toBe('typing');
      expect(replies[1]?.text).toBe(
        'Recorded "warn" for Bearing temperature on Cooling water pump 1 (plan Daily rounds). Send a photo now to attach it to this record.',
      );
      const [record] = await client.lastRecords(pump.id, 1);
      const plans = await client.listActivePlans();
      expect(record).toMatchObject({
        status: 'warn',
        value: '72 °C',
        note: 'runs hot',
        checked_by: INSPECTOR,
        device: pump.id,
        item: item?.id,
        plan: plans.find((plan) => plan.name === 'Daily rounds')?.id,
        photo: null,
      });

      const photo = await harness.turn({
        attachments: [{ contentType: 'image/png', name: 'gauge.png', contentUrl: `${files.url}/photo.png` }],
      });
      expect(photo.map((reply) => reply.type)).toEqual(['typing', 'message']);
      expect(photo[1]?.text).toBe(
        'The photo is attached to the record of Bearing temperature on Cooling water pump 1.',
      );
      const withPhoto = await client.getRecord(record?.id ?? 0);
      const served = await fetch(withPhoto.photo ?? '');
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      // The confirmation shows the stored photo as a picture.
      expect(photo[1]?.attachments).toEqual([
        { contentType: 'image/png', contentUrl: withPhoto.photo, name: photo[1]?.text },
      ]);

      // history: a thumbnail beside the record that has a photo.
      const [history] = await harness.say('history PUMP-001');
      const card = history?.attachments?.[0];
      expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
      expect(JSON.stringify(card?.content)).toContain(JSON.stringify(withPhoto.photo));
    });

    it('an id of no active account (unknown, inactive, not dl_<id>) gets a polite refusal and no record', async () => {
      const bob = await createAccount(client, api.url, 'bob.inactive');
      const deactivated = await fetch(`${api.url}/api/users/${bob.id}/`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${await client.accessToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ is_active: false }),
      });
      expect(deactivated.status).toBe(200);
      const before = await client.countRecords({ device: pump.id });
      for (const from of [
        { id: 'dl_999999', name: INSPECTOR },
        { id: `dl_${bob.id}`, name: 'bob.inactive' },
        { id: 'alice.inspector', name: INSPECTOR },
        { id: '' },
      ] as ChannelAccount[]) {
        const replies = await new BotHarness(client).say('', {
          from,
          ...recordAnswer(pump.id, pump.check_items[0]?.id ?? 0, 'ok'),
        });
        expect(textsOf(replies)).toEqual([
          'Sorry, I cannot find an active inspection account for this chat, so I cannot record anything. Please sign in again on the chat page.',
        ]);
      }
      expect(await client.countRecords({ device: pump.id })).toBe(before);
    });

    it('a record of a device outside every active plan has no plan', async () => {
      const device = await client.createDevice({ name: 'Spare valve', code: 'VALVE-9' });
      const item = await client.createItem({ device: device.id, name: 'Seat' });
      const [reply] = await new BotHarness(client).say('', recordAnswer(device.id, item.id, 'fail'));
      expect(reply?.text).toBe(
        'Recorded "fail" for Seat on Spare valve. Send a photo now to attach it to this record.',
      );
      expect((await client.lastRecords(device.id, 1))[0]?.plan).toBeNull();
    });

    it('refusals in plain words: a value the API refuses, a stale card, photos without a record or not images', async () => {
      const harness = new BotHarness(client);
      const item = pump.check_items[0]?.id ?? 0;
      expect(
        textsOf(await harness.say('', recordAnswer(pump.id, item, 'ok', { value: 'x'.repeat(201) }))),
      ).toEqual([
        'The inspection service refused this: Value: Ensure this field has no more than 200 characters.',
      ]);
      expect(textsOf(await harness.say('', recordAnswer(999_999, item, 'ok')))).toEqual([
        'That card no longer matches the inspection data. Type "devices" to start again.',
      ]);
      expect(textsOf(await harness.say('', recordAnswer(extinguisher.id, item, 'ok')))).toEqual([
        'That card no longer matches the inspection data. Type "devices" to start again.',
      ]);
      const photo = (name: string, contentType = 'image/png') => ({
        attachments: [{ contentType, name, contentUrl: `${files.url}/${name}` }],
      });
      // Someone with no record of the last 12 hours without a photo (the conversation knows none either).
      const newcomer = await createAccount(client, api.url, 'carol.newcomer');
      const asNewcomer = { from: { id: `dl_${newcomer.id}`, name: 'Carol' } };
      expect(textsOf(await harness.say('', { ...photo('photo.png'), ...asNewcomer }))).toEqual([
        'Record a check first, then send the photo: it is attached to your last record.',
      ]);
      await harness.say('', recordAnswer(pump.id, item, 'ok'));
      expect(textsOf(await harness.say('', photo('report.pdf', 'application/pdf')))).toEqual([
        'Only photos can be attached to a record. Please send an image file.',
      ]);
      expect(textsOf(await harness.say('', photo('missing.png')))).toEqual([
        'I could not download the photo from the chat service. Please send it again.',
      ]);
      expect(textsOf(await harness.say('', photo('not-an-image.png')))).toEqual([
        expect.stringMatching(/^The inspection service refused this: Photo: Upload a valid image\./),
      ]);
    });

    it('says plainly when inspection-api cannot be reached', async () => {
      const offline = new InspectionApiClient({ baseUrl: 'http://127.0.0.1:1', ...ACCOUNT, timeoutMs: 2000 });
      expect(textsOf(await new BotHarness(offline).say('devices'))).toEqual([
        'The inspection service is not reachable right now. Please try again in a moment.',
      ]);
    });
  });

  describe('history', () => {
    it('"history <code>" lists the last records, newest first, with status, item, value and inspector', async () => {
      const replies = await new BotHarness(client).turn({ text: 'history PUMP-001' });
      expect(replies[0]?.type).toBe('typing');
      const lines = (replies[1]?.text ?? '').split('\n');
      expect(lines[0]).toBe('Last records of Cooling water pump 1 (PUMP-001):');
      expect(lines.length).toBeGreaterThan(2);
      expect(lines.length).toBeLessThanOrEqual(6);
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^- \d{4}-\d\d-\d\d \d\d:\d\d: "warn" for Bearing temperature \(value 72 °C\), by alice\.inspector$/,
        ),
      );
      expect(lines[1]).toMatch(/"ok" for Outlet pressure, by alice\.inspector$/);
    });

    it('a device without records, an unknown code and a missing code are said plainly', async () => {
      const harness = new BotHarness(client);
      expect(textsOf(await harness.say('history FE-010'))).toEqual([
        'Fire extinguisher, entrance (FE-010) has no records yet.',
      ]);
      expect(textsOf(await harness.say('history NOPE-9'))).toEqual([
        'There is no device with the code "NOPE-9". Type "devices" to see them all.',
      ]);
      expect(textsOf(await harness.say('history'))).toEqual([
        'Type "history" followed by a device code, for example "history PUMP-001".',
      ]);
    });
  });

  describe('today', () => {
    it('lists the devices of active plans not yet checked in their current period', async () => {
      // PUMP-001 was checked today (daily plan; its last item now too: inspection-api's due rules want each check
      // item of the device); CMP-002 and FE-010 (monthly) were not.
      for (const item of pump.check_items.slice(2))
        await client.createRecord({ device: pump.id, item: item.id, status: 'ok', checked_by: 'test' });
      const replies = await new BotHarness(client).turn({ text: 'today' });
      expect(replies[0]?.type).toBe('typing');
      expect((replies[1]?.text ?? '').split('\n')).toEqual([
        'Due now (2):',
        '- Air compressor 2 (CMP-002): plan Daily rounds, daily',
        '- Fire extinguisher, entrance (FE-010): plan Monthly safety, monthly',
      ]);
      expect(replies[2]?.attachments?.map((card) => (card.content as { title: string }).title)).toEqual([
        'Air compressor 2',
        'Fire extinguisher, entrance',
      ]);
    });

    it("lists the signed-in inspector's checks first (plans assigned to them)", async () => {
      const access = await client.accessToken();
      const monthly = (await client.listActivePlans()).find((plan) => plan.frequency === 'monthly');
      const assign = (assignees: number[]) =>
        fetch(`${api.url}/api/plans/${monthly?.id}/`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
          body: JSON.stringify({ assignees }),
        });
      expect((await assign([aliceId])).status).toBe(200);
      const replies = await new BotHarness(client).say('today');
      expect((replies[0]?.text ?? '').split('\n')).toEqual([
        'Due now (2):',
        '- Fire extinguisher, entrance (FE-010): plan Monthly safety, monthly',
        '- Air compressor 2 (CMP-002): plan Daily rounds, daily',
      ]);
      expect((await assign([])).status).toBe(200);
    });

    it("counts a team's plan as the inspector's when they are a member, naming the team (en, zh-CN)", async () => {
      const access = await client.accessToken();
      const call = (method: string, path: string, body: unknown) =>
        fetch(`${api.url}/api/${path}`, {
          method,
          headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const monthly = (await client.listActivePlans()).find((plan) => plan.frequency === 'monthly');
      const created = await call('POST', 'teams/', { name: 'Night crew', members: [aliceId] });
      expect(created.status).toBe(201);
      const team = ((await created.json()) as { id: number }).id;
      expect((await call('PATCH', `plans/${monthly?.id}/`, { assignee_teams: [team] })).status).toBe(200);
      try {
        const [english] = await new BotHarness(client).say('today');
        expect((english?.text ?? '').split('\n')).toEqual([
          'Due now (2):',
          '- Fire extinguisher, entrance (FE-010): plan Monthly safety, monthly · team Night crew',
          '- Air compressor 2 (CMP-002): plan Daily rounds, daily',
        ]);
        const [chinese] = await new BotHarness(client).say('今天', { locale: 'zh-CN' });
        const lines = (chinese?.text ?? '').split('\n');
        expect(lines[1]).toMatch(/^- .*（FE-010）.* · 班组 Night crew$/);
        expect(lines[2]).toMatch(/（CMP-002）/);
        expect(lines[2]).not.toContain('班组');
        // Someone else's team: the plan is not theirs, the API's order stays.
        expect((await call('PATCH', `teams/${team}/`, { members: [] })).status).toBe(200);
        const [other] = await new BotHarness(client).say('today');
        expect((other?.text ?? '').split('\n').slice(1)).toEqual([
          '- Air compressor 2 (CMP-002): plan Daily rounds, daily',
          '- Fire extinguisher, entrance (FE-010): plan Monthly safety, monthly',
        ]);
      } finally {
        expect((await call('DELETE', `teams/${team}/`, undefined)).status).toBe(204);
      }
    });

    it('the next period makes a checked device due again; nothing due and no plans are said plainly', async () => {
      const tomorrow = () => new Date(Date.now() + 24 * 3600 * 1000);
      const [later] = await new BotHarness(client, { now: tomorrow }).say('today');
      // (the text first, then the cards)
      // Tomorrow's period starts after every record made today, so the pump is due again.
      expect(later?.text).toContain('Cooling water pump 1 (PUMP-001): plan Daily rounds, daily');

      const harness = new BotHarness(client);
      const compressor = (await client.findDeviceByCode('CMP-002')) as Device;
      for (const device of [compressor, extinguisher])
        for (const item of device.check_items) await harness.say('', recordAnswer(device.id, item.id, 'ok'));
      expect(textsOf(await harness.say('today'))).toEqual([
        'Nothing is due: every device in an active plan has been checked in its current period.',
      ]);

      const access = await client.accessToken();
      for (const plan of await client.listActivePlans()) {
        await fetch(`${api.url}/api/plans/${plan.id}/`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
          body: JSON.stringify({ active: false }),
        });
      }
      expect(textsOf(await harness.say('today'))).toEqual(['There is no active inspection plan.']);
    });
  });

  describe('answers with an identity, answered cards, photos bound to their record', () => {
    type Card = {
      body: Array<{ text?: string }>;
      actions: Array<{ title: string; data: Record<string, unknown> }>;
    };
    const cardsOf = (reply: Partial<Activity> | undefined): Card[] =>
      (reply?.attachments ?? []).map((attachment) => attachment.content as Card);
    let tap: Device;

    beforeAll(async () => {
      const device = await client.createDevice({ name: 'Tap valve', code: 'TAP-1', location: 'Roof' });
      await client.createItem({ device: device.id, name: 'Seal', expected_value: 'dry' });
      await client.createItem({ device: device.id, name: 'Handle' });
      tap = await client.getDevice(device.id);
    });

    /** `check TAP-1` in a harness: the card message and each item's ok / warn / fail data. */
    const openCheck = async (harness: BotHarness) => {
      const replies = await harness.say('check TAP-1');
      const message = replies[1];
      return { message, cards: cardsOf(message) };
    };

    it('a double tap, a retry and a resend make one record; the card then shows the answer and no longer submits', async () => {
      const harness = new BotHarness(client);
      const { message, cards } = await openCheck(harness);
      const ok = cards[0]?.actions.find((action) => action.data.status === 'ok')?.data ?? {};
      expect(ok).toMatchObject({
        action: 'record',
        item: tap.check_items[0]?.id,
        answer: expect.any(String),
      });
      // One answer id per card, on each of its buttons.
      expect(new Set(cards[0]?.actions.map((action) => action.data.answer)).size).toBe(1);
      expect(cards[1]?.actions[0]?.data.answer).not.toBe(ok.answer);

      const before = await client.countRecords({ device: tap.id });
      const first = await harness.say('', { value: { ...ok, value: '', note: '' }, localTimezone: 'UTC' });
      expect(textsOf(first)).toEqual([
        'Recorded "ok" for Seal on Tap valve. Send a photo now to attach it to this record.',
      ]);
      // The card message is updated in place: the answered item shows its answer and offers only "add photo".
      expect(harness.updated).toHaveLength(1);
      expect(harness.updated[0]?.id).toBe(message?.id);
      const [answered, open] = cardsOf(harness.updated[0]);
      const [record] = await client.lastRecords(tap.id, 1);
      const time = (record?.checked_at ?? '').slice(11, 16);
      expect(record?.source).toBe('chat');
      expect(answered?.body.map((block) => block.text)).toEqual(['Seal', `ok · ${time} · ${INSPECTOR}`]);
      expect(answered?.actions).toEqual([
        {
          type: 'Action.Submit',
          title: 'Add photo',
          data: { command: 'attach-photo', recordId: record?.id },
        },
      ]);
      expect(open?.actions.map((action) => action.title)).toEqual(['ok', 'warn', 'fail']);

      // The second tap of the double tap (another activity, the same card): the same record.
      await harness.say('', { value: { ...ok, value: '', note: '' } });
      // Another status on the answered card: refused, with the answer it has.
      const fail = { ...ok, status: 'fail', value: '', note: '' };
      expect(textsOf(await harness.say('', { value: fail, localTimezone: 'UTC' }))).toEqual([
        `This item is already answered: ok · ${time} · ${INSPECTOR}.`,
      ]);
      expect(await client.countRecords({ device: tap.id })).toBe(before + 1);

      // A card without an answer id (sent before answers had one): Web Chat's clientActivityID is the identity, so
      // the page outbox's resend (same clientActivityID, a new activity id) makes no second record.
      const resend = {
        value: {
          action: 'record',
          device: tap.id,
          item: tap.check_items[1]?.id,
          status: 'warn',
          value: '',
          note: '',
        },
        channelData: { clientActivityID: 'outbox-resend-1' },
      };
      await harness.say('', resend);
      await harness.say('', resend);
      expect(await client.countRecords({ device: tap.id })).toBe(before + 2);

      // A second "check TAP-1" (a rejoin) shows the progress and the answered items.
      const again = await harness.say('check TAP-1');
      expect(again[0]?.text).toBe(
        'Tap valve (TAP-1): record a result for each item with the buttons. 2 of 2 items answered.',
      );
      expect(cardsOf(again[1]).map((card) => card.actions.map((action) => action.title))).toEqual([
        ['Add photo'],
        ['Add photo'],
      ]);
    });

    it('a photo goes to the record it was taken for ("add photo" or channelData.recordId), else to the last one', async () => {
      const harness = new BotHarness(client);
      const { cards } = await openCheck(harness);
      const answer = async (card: Card | undefined) => {
        const data = card?.actions.find((action) => action.data.status === 'warn')?.data ?? {};
        await harness.say('', { value: { ...data, value: '', note: '' } });
        return (await client.lastRecords(tap.id, 1))[0];
      };
      const seal = await answer(cards[0]);
      const handle = await answer(cards[1]);
      const photo = { contentType: 'image/png', name: 'gauge.png', contentUrl: `${files.url}/photo.png` };

      // "add photo" on the seal, after the handle was answered: the photo belongs to the seal.
      const bound = await harness.say('', {
        attachments: [photo],
        value: { command: 'attach-photo', recordId: seal?.id },
        channelData: { clientActivityID: 'photo-1' },
      });
      expect(textsOf(bound)).toEqual(['The photo is attached to the record of Seal on Tap valve.']);
      const withPhoto = await client.getRecord(seal?.id ?? 0);
      expect(withPhoto.photo).not.toBeNull();
      expect((await client.getRecord(handle?.id ?? 0)).photo).toBeNull();
      // The card marks it.
      expect(cardsOf(harness.updated[0])[0]?.body[1]?.text).toMatch(/ · photo attached$/);
      // The outbox's resend of the same photo: one upload, the same stored photo.
      await harness.say('', {
        attachments: [photo],
        value: { command: 'attach-photo', recordId: seal?.id },
        channelData: { clientActivityID: 'photo-1' },
      });
      expect((await client.getRecord(seal?.id ?? 0)).photo).toBe(withPhoto.photo);

      // channelData.recordId names the record too.
      await harness.say('', { attachments: [photo], channelData: { recordId: handle?.id } });
      expect((await client.getRecord(handle?.id ?? 0)).photo).not.toBeNull();

      // "add photo" as a plain submit: the bot asks for the photo, and the next one goes there.
      expect(
        textsOf(await harness.say('', { value: { command: 'attach-photo', recordId: seal?.id } })),
      ).toEqual(['Send the photo now: it will be attached to the record of Seal on Tap valve.']);
      await harness.say('', { attachments: [photo] });
      expect((await client.getRecord(seal?.id ?? 0)).photo).not.toBe(withPhoto.photo);

      // Someone else's record is refused.
      const other = await client.createRecord({
        device: tap.id,
        item: tap.check_items[0]?.id ?? 0,
        status: 'ok',
        checked_by: 'someone.else',
      });
      expect(
        textsOf(
          await harness.say('', {
            attachments: [photo],
            value: { command: 'attach-photo', recordId: other.id },
          }),
        ),
      ).toEqual(['That record is not one of yours, so I cannot attach a photo to it.']);
      expect((await client.getRecord(other.id)).photo).toBeNull();
    });

    it("a check's progress comes from inspection-api: another conversation shows the period's answers; an item answered there is said, and recorded again only when confirmed", async () => {
      const device = await client.createDevice({ name: 'Progress pump', code: 'PRG-1', location: 'Hall' });
      await client.createItem({ device: device.id, name: 'Seal' });
      await client.createItem({ device: device.id, name: 'Handle' });
      await client.createPlan({ name: 'Progress rounds', frequency: 'daily', devices: [device.id] });
      const progress = await client.getDevice(device.id);
      const statusData = (card: Card | undefined, status: string) => ({
        ...(card?.actions.find((action) => action.data.status === status)?.data ?? {}),
        value: '',
        note: '',
      });
      // A card shown on another phone (or before a bot restart), before the item was answered.
      const stale = new BotHarness(client);
      const staleCards = cardsOf((await stale.say('check PRG-1'))[1]);

      const first = new BotHarness(client);
      const firstCards = cardsOf((await first.say('check PRG-1'))[1]);
      await first.say('', { value: statusData(firstCards[0], 'ok') });
      const [record] = await client.lastRecords(progress.id, 1);
      const line = `ok · ${(record?.checked_at ?? '').slice(11, 16)} · ${INSPECTOR}`;

      // A new conversation (a reload after the token expired, another phone, a restarted bot): the same progress.
      const rejoined = await new BotHarness(client).say('check PRG-1', { localTimezone: 'UTC' });
      expect(rejoined[0]?.text).toBe(
        'Progress pump (PRG-1): record a result for each item with the buttons. 1 of 2 items answered.',
      );
      const [seal, handle] = cardsOf(rejoined[1]);
      expect(seal?.body.map((block) => block.text)).toEqual(['Seal', line]);
      expect(seal?.actions.map((action) => action.title)).toEqual(['Add photo']);
      expect(handle?.actions.map((action) => action.title)).toEqual(['ok', 'warn', 'fail']);

      // The stale card's tap on the answered item: said, nothing recorded, its card now shows the answer.
      const count = await client.countRecords({ device: progress.id });
      const refused = await stale.say('', { value: statusData(staleCards[0], 'warn'), localTimezone: 'UTC' });
      expect(textsOf(refused)).toEqual([
        `Seal is already answered in this period: ${line}. Nothing new was recorded.`,
      ]);
      expect(await client.countRecords({ device: progress.id })).toBe(count);
      expect(cardsOf(stale.updated[0])[0]?.body.map((block) => block.text)).toEqual(['Seal', line]);
      // Confirmed: a second record, once however often the button is pressed.
      const confirm = (refused[0]?.suggestedActions?.actions ?? [])[0];
      expect(confirm?.title).toBe('Record warn as well');
      expect(confirm?.value).toMatchObject({
        action: 'record',
        item: progress.check_items[0]?.id,
        again: true,
      });
      expect(textsOf(await stale.say(confirm?.title ?? '', { value: confirm?.value as object }))).toEqual([
        'Recorded "warn" for Seal on Progress pump (plan Progress rounds). Send a photo now to attach it to this record.',
      ]);
      await stale.say(confirm?.title ?? '', { value: confirm?.value as object });
      expect(await client.countRecords({ device: progress.id })).toBe(count + 1);
      expect((await client.lastRecords(progress.id, 1))[0]).toMatchObject({ status: 'warn' });
    });

    it('the welcome offers Today, Devices and Help; help answers in English and Chinese', async () => {
      const join = {
        type: 'conversationUpdate',
        membersAdded: [BotHarness.from],
        recipient: { id: 'bot', name: 'Inspection bot' },
      };
      const [welcome] = await new BotHarness(client).turn(join);
      expect(welcome?.suggestedActions?.actions).toEqual([
        { type: 'imBack', title: 'Today', value: 'today' },
        { type: 'imBack', title: 'Devices', value: 'devices' },
        { type: 'imBack', title: 'Help', value: 'help' },
      ]);
      const [chinese] = await new BotHarness(client).turn({ ...join, locale: 'zh-CN' });
      expect(chinese?.suggestedActions?.actions.map((action) => action.title)).toEqual([
        '今天',
        '设备',
        '帮助',
      ]);

      const [help] = textsOf(await new BotHarness(client).say('help'));
      expect(help).toMatch(/^Here is what I understand:\n- "today": the checks due now\n/);
      const [帮助] = textsOf(await new BotHarness(client).say('帮助', { locale: 'zh-CN' }));
      expect(帮助).toMatch(/^我能理解以下指令：/);
    });

    it('"notifications" shows and changes the inspector\'s preferences in inspection-api, in English and Chinese', async () => {
      const [shown] = textsOf(await new BotHarness(client).say('notifications'));
      expect(shown).toMatch(
        /^Your notifications: actions assigned to you, checks due, overdue checks, overdue actions\.\nQuiet hours: none\. Due-check reminders: when checks fall due\. Time zone: the service's\./,
      );
      const [saved, changed] = textsOf(await new BotHarness(client).say('quiet 22:00-07:00'));
      expect(saved).toBe('Saved.');
      expect(changed).toContain('Quiet hours: 22:00–07:00.');
      textsOf(await new BotHarness(client).say('remind 8:30'));
      const inspector = /^dl_(\d+)$/.exec(BotHarness.from.id)?.[1];
      const stored = await client.notificationPreferences(Number(inspector));
      expect(stored).toMatchObject({
        quiet_hours_start: '22:00:00',
        quiet_hours_end: '07:00:00',
        reminder_time: '08:30:00',
      });

      const [已保存, 中文] = textsOf(
        await new BotHarness(client).say('时区 Asia/Shanghai', { locale: 'zh-CN' }),
      );
      expect(已保存).toBe('已保存。');
      expect(中文).toContain('免打扰时段：22:00–07:00。到期检查提醒：08:30。时区：Asia/Shanghai。');
      const [refused] = textsOf(await new BotHarness(client).say('timezone Mars/Olympus'));
      expect(refused).toBe('The inspection service refused this: Time zone: A valid timezone is required.');
      const [off] = textsOf(await new BotHarness(client).say('notifications off')).slice(1);
      expect(off).toContain('\nIn the chat: off. By email: off.\n');
      await expect(client.notificationPreferences(Number(inspector))).resolves.toMatchObject({
        chat: false,
        reminder_time: '08:30:00',
      });
    });

    it('more than 4 devices are a vertical list', async () => {
      for (const code of ['LIST-1', 'LIST-2']) await client.createDevice({ name: `Listed ${code}`, code });
      const replies = await new BotHarness(client).say('devices');
      expect(replies[0]?.text).toMatch(/^Devices \(\d+\)\. Choose one to start its check\./);
      expect(replies[1]?.attachments?.length).toBeGreaterThan(4);
      expect(replies[1]?.attachmentLayout).toBe('list');
    });

    it("a scanned label (event openDevice) opens that device's check; an unknown code says so", async () => {
      const harness = new BotHarness(client);
      const opened = await harness.say('', {
        type: 'event',
        name: 'openDevice',
        value: { code: 'tap-1', source: 'qr' },
      });
      expect(opened[0]?.text).toBe(
        'Opened from the QR label of Tap valve (TAP-1). Tap valve (TAP-1): record a result for each item with the buttons.',
      );
      const cards = cardsOf(opened[1]);
      expect(cards).toHaveLength(2);
      expect(cards[0]?.actions[0]?.data).toMatchObject({ action: 'record', source: 'qr' });
      // A record made from the scanned label's check says so (source "qr"); from a typed check, "chat".
      await harness.say('', { value: { ...cards[0]?.actions[0]?.data, value: '', note: '' } });
      expect((await client.lastRecords(tap.id, 1))[0]?.source).toBe('qr');
      expect(
        textsOf(
          await harness.say('', {
            type: 'event',
            name: 'openDevice',
            value: { code: 'NOPE-42', source: 'qr' },
          }),
        ),
      ).toEqual([
        'The scanned label\'s code "NOPE-42" matches no device. Type "devices" to choose one, and ask a supervisor for a new label.',
      ]);
      const [chinese] = textsOf(
        await harness.say('', {
          type: 'event',
          name: 'openDevice',
          value: { code: 'NOPE-42' },
          locale: 'zh-CN',
        }),
      );
      expect(chinese).toBe(
        '扫描的标签编号“NOPE-42”没有对应的设备。请输入“devices”（设备）选择设备，并请主管重新打印标签。',
      );
    });
  });

  describe('an out-of-range value', () => {
    it('asks to confirm and proposes fail; "Mark as fail" fails the record, "Keep" keeps it', async () => {
      const device = await client.createDevice({ name: 'Boiler 3', code: 'BLR-003' });
      const gauge = await client.createItem({
        device: device.id,
        name: 'Pressure',
        ...{ type: 'number', min: 2.5, max: 3, unit: 'bar' },
      });
      const harness = new BotHarness(client);
      const replies = await harness.say('', recordAnswer(device.id, gauge.id, 'ok', { value: '3.1' }));
      const question = replies.find((reply) => reply.suggestedActions);
      expect(question?.text).toBe(
        '3.1 is outside the range of Pressure (2.5–3 bar). Is the reading right? If so, mark the check as failed.',
      );
      const actions = question?.suggestedActions?.actions ?? [];
      expect(actions.map((action) => action.title)).toEqual(['Mark as fail', 'Keep "ok"']);
      const failed = actions[0]?.value as { recordId: number };
      expect(textsOf(await harness.say('Mark as fail', { value: actions[0]?.value }))).toEqual([
        'The check of Pressure is now "fail".',
      ]);
      expect(await client.getRecord(failed.recordId)).toMatchObject({ status: 'fail', out_of_range: true });

      // In range: no question. Keep: the record stays as answered.
      const fine = await harness.say(
        '',
        recordAnswer(device.id, gauge.id, 'ok', { value: '2.8', answer: 'fine-1' }),
      );
      expect(fine.some((reply) => reply.suggestedActions)).toBe(false);
      const low = await harness.say(
        '',
        recordAnswer(device.id, gauge.id, 'warn', { value: '2', answer: 'low-1' }),
      );
      const keep = low.find((reply) => reply.suggestedActions)?.suggestedActions?.actions[1];
      expect(textsOf(await harness.say('Keep', { value: keep?.value }))).toEqual([
        'Kept "warn" for Pressure, flagged as out of range.',
      ]);
      const kept = keep?.value as { recordId: number };
      expect(await client.getRecord(kept.recordId)).toMatchObject({ status: 'warn', out_of_range: true });
      // Someone else's record is not changed.
      const theirs = await client.createRecord({
        device: device.id,
        item: gauge.id,
        status: 'ok',
        value: '9',
        checked_by: 'bob',
      });
      expect(
        textsOf(
          await harness.say('x', { value: { command: 'out-of-range', recordId: theirs.id, choice: 'fail' } }),
        ),
      ).toEqual(['That card no longer matches the inspection data. Type "devices" to start again.']);
      expect(await client.getRecord(theirs.id)).toMatchObject({ status: 'ok' });
    });
  });
});
