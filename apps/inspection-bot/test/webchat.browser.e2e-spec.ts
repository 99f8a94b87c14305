import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHROMIUM,
  DESKTOP,
  launchChromium,
  openPage,
  type OpenedPage,
  PHONE,
} from '@fieldops/testing/browser';
import { chatWelcome, createAccount, submitChatSignIn, type TestAccount } from '@fieldops/testing/chat-page';
import { type Browser, type Page } from 'playwright-core';
import { type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

/** The one browser function the tests call inside the page (this test's tsconfig has no DOM types). */
declare function getComputedStyle(element: unknown): { backgroundColor: string };

/** Screenshots kept as CI artifacts. */
const REPORTS = join(__dirname, '..', '.reports');
const AXE = require.resolve('axe-core/axe.min.js');
let axeRun = 0;
const VIEWPORTS = {
  phone: PHONE,
  desktop: DESKTOP,
} as const;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent) {
  if (process.env.CI) {
    // In CI the browser test is the acceptance test: a missing browser is a failure, not a skip.
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  console.warn(
    `\n*** SKIPPING the Web Chat browser test: Chromium is not installed at ${CHROMIUM}. ` +
      'Install it with `apt-get install -y --no-install-recommends chromium` (CI fails instead of skipping). ***\n',
  );
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; html?: string }>;
}

(chromiumPresent ? describe : describe.skip)('the chat page in a real browser (Chromium + Web Chat)', () => {
  let platform: RunningInspectionPlatform;
  let browser: Browser;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    platform = await startInspectionPlatform();
    browser = await launchChromium();
  }, 60_000);

  // Each walk starts with nothing answered: a check shows what its period already has (from any conversation).
  beforeEach(() => platform.clearRecords());

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /**
   * A fresh browser profile at a viewport, console errors and page errors collected, and an inspector account of
   * the test's own (the chat page opens the account's home conversation: a shared account would share a transcript).
   */
  const open = async (
    viewport: keyof typeof VIEWPORTS,
    locale: string,
  ): Promise<OpenedPage & { account: TestAccount }> => {
    browserErrors.splice(0);
    const account = await createAccount(platform.accounts);
    const opened = await openPage(browser, { viewport: VIEWPORTS[viewport], locale, errors: browserErrors });
    return { ...opened, account };
  };

  const sendText = async (page: Page, text: string): Promise<void> => {
    const box = page.locator('.webchat__send-box').getByRole('textbox').first();
    await box.fill(text);
    await box.press('Enter');
  };

  /** Serious and critical axe-core violations (axe injected with playwright-core). */
  const axeViolations = async (page: Page): Promise<AxeViolation[]> => {
    // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on for everything else.
    await page.evaluate(readFileSync(AXE, 'utf8'));
    const options = {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    };
    const result = await page.evaluate<{ violations: AxeViolation[] }>(
      `axe.run(document, ${JSON.stringify(options)})`,
    );
    const serious = result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(({ id, impact, nodes }) => ({
        id,
        impact,
        nodes: nodes.map(({ target, html }) => ({ target, html })),
      }));
    writeFileSync(join(REPORTS, `axe-${(axeRun += 1)}.json`), JSON.stringify(serious, null, 2));
    return serious;
  };

  const horizontalOverflow = (page: Page): Promise<number> =>
    page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  const shoot = (page: Page, name: string): Promise<Buffer> =>
    page.screenshot({ path: join(REPORTS, `${name}.png`) });

  it('phone: wrong password refused; sign-in, welcome, devices, ok recorded as the account; a photo shows; reload; sign-out', async () => {
    const { context, page, account } = await open('phone', 'en-US');
    try {
      await page.goto(`${platform.bot.url}/?locale=en-US`);
      await page.getByRole('heading', { name: 'Sign in to start an inspection' }).waitFor();
      await shoot(page, 'phone-en-sign-in');

      // A wrong password: a clear message, no chat.
      await submitChatSignIn(page, account, 'not-the-password');
      await page.getByText('Wrong user name or password. Please try again.').waitFor();
      expect(await page.locator('#chat').isHidden()).toBe(true);
      // Chromium logs the refused request (401) itself: the one console error this flow expects.
      expect(browserErrors.splice(0)).toEqual([
        expect.stringMatching(/Failed to load resource: the server responded with a status of 401/),
      ]);
      await shoot(page, 'phone-en-wrong-password');

      // Signed in: the header names the user, Web Chat renders and the welcome arrives without typing.
      await submitChatSignIn(page, account);
      await page.getByText(chatWelcome(account.username, 'en-US')).first().waitFor({ timeout: 20_000 });
      await expect(page.locator('#who').textContent()).resolves.toBe(`Signed in as ${account.username}`);
      await expect(page.getByRole('button', { name: 'Sign out' }).isVisible()).resolves.toBe(true);
      // The upload button offers photos (phones then offer the camera).
      await expect(page.locator('input[type="file"]').first().getAttribute('accept')).resolves.toBe(
        'image/*',
      );

      await sendText(page, 'devices');
      const startButtons = page.getByRole('button', { name: 'Start check' });
      await startButtons.first().waitFor({ timeout: 15_000 });
      await startButtons.first().click();
      const outletCard = page
        .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
        .filter({ hasText: 'Outlet pressure' })
        .first();
      await outletCard.waitFor({ timeout: 15_000 });
      // ok / warn / fail look different.
      const colours = await outletCard
        .locator('.ac-pushButton')
        .evaluateAll((buttons) => buttons.map((button) => getComputedStyle(button).backgroundColor));
      expect(new Set(colours).size).toBe(3);
      await outletCard.getByRole('textbox', { name: 'Measured value (optional)' }).fill('2.7 bar');
      await outletCard.getByRole('textbox', { name: 'Note (optional)' }).fill('steady');
      await outletCard.getByRole('button', { name: 'ok', exact: true }).click();
      await page
        .getByText(/Recorded .ok. for Outlet pressure on Cooling water pump 1/)
        .first()
        .waitFor({ timeout: 15_000 });

      const pump = await platform.client.findDeviceByCode('PUMP-001');
      const [record] = await platform.client.lastRecords(pump?.id ?? 0, 1);
      expect(record).toMatchObject({
        status: 'ok',
        value: '2.7 bar',
        note: 'steady',
        checked_by: account.username,
        device: pump?.id,
        item: pump?.check_items[0]?.id,
        photo: null,
      });

      // The bot updates the card message (updateActivity): the answered card shows its answer in its place, and its
      // status buttons are gone.
      const answeredOutlet = page
        .locator('.ac-adaptiveCard')
        .filter({ hasText: 'Outlet pressure' })
        .filter({ hasText: new RegExp(`ok · \\d\\d:\\d\\d · ${account.username}`) })
        .first();
      await answeredOutlet.waitFor({ timeout: 15_000 });
      expect(await answeredOutlet.getByRole('button', { name: 'ok', exact: true }).count()).toBe(0);
      expect(await answeredOutlet.locator('textarea').count()).toBe(0);
      await expect(answeredOutlet.getByRole('button', { name: 'Add photo' }).isVisible()).resolves.toBe(true);
      await answeredOutlet.screenshot({ path: join(REPORTS, 'phone-en-answered-card.png') });

      // A photo through the paperclip: attached to the record, served (200, the PNG bytes), shown as a picture.
      await page.locator('input[type="file"]').first().setInputFiles({
        name: 'gauge.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await page
        .getByText(/The photo is attached to the record of Outlet pressure/)
        .first()
        .waitFor({ timeout: 15_000 });
      const withPhoto = await platform.client.getRecord(record?.id ?? 0);
      expect(withPhoto.photo).toMatch(/\/media\/photos\/[0-9a-f]{32}\.png$/);
      const served = await fetch(withPhoto.photo ?? '');
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      await page.locator(`.webchat__basic-transcript img[src="${withPhoto.photo}"]`).first().waitFor();

      // A double tap on an answer makes one record.
      const bearingCard = page
        .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
        .filter({ hasText: 'Bearing temperature' })
        .first();
      await bearingCard.getByRole('button', { name: 'warn', exact: true }).dblclick();
      await page
        .locator('.ac-adaptiveCard')
        .filter({ hasText: 'Bearing temperature' })
        .filter({ hasText: new RegExp(`warn · \\d\\d:\\d\\d · ${account.username}`) })
        .first()
        .waitFor({ timeout: 15_000 });
      // The page dropped the second tap: two answers on the page (Outlet pressure's and this one).
      expect(await page.locator('.card-answer').count()).toBe(2);
      const bearingItem = pump?.check_items.find((item) => item.name === 'Bearing temperature')?.id;
      expect(
        (await platform.client.lastRecords(pump?.id ?? 0, 20)).filter((each) => each.item === bearingItem),
      ).toHaveLength(1);
      await shoot(page, 'phone-en-answered-cards');

      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await shoot(page, 'phone-en-chat');
      expect(await axeViolations(page)).toEqual([]);

      // A reload with a live session goes straight to the chat.
      await page.reload();
      await page.getByText(chatWelcome(account.username, 'en-US')).first().waitFor({ timeout: 20_000 });
      expect(await page.locator('#sign-in').isHidden()).toBe(true);

      // Sign-out: the chat is gone, the form is back, and the session is over.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You have signed out.').waitFor();
      await shoot(page, 'phone-en-signed-out');
      expect(await page.locator('#chat').isHidden()).toBe(true);
      expect(await page.locator('.webchat__basic-transcript').count()).toBe(0);
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in to start an inspection' }).waitFor();
      expect(browserErrors).toEqual([]);
    } finally {
      await shoot(page, 'phone-en-last').catch(() => undefined);
      await context.close();
    }
  }, 120_000);

  // Every size in every language, one walk each: the bot's words (and their length at 390 px) differ by language,
  // the layout by size. A QR label lands on its device's check; a reload rejoins that conversation with its
  // transcript and the answered item; an unknown code says so; sign-out then sign-in renders a working chat.
  for (const [viewport, locale] of [
    ['phone', 'en-US'],
    ['desktop', 'en-US'],
    ['phone', 'zh-CN'],
    ['desktop', 'zh-CN'],
  ] as const) {
    const chinese = locale === 'zh-CN';
    const tag = `${viewport}-${chinese ? 'zh' : 'en'}`;
    const ok = chinese ? '正常' : 'ok';
    it(`${tag}: a QR label (/d/CODE) lands on that device's check and its answer records source qr; a reload rejoins the same conversation with its transcript and answered item; an unknown code says so; the text with a list is never cut off; sign-out then sign-in renders a working chat`, async () => {
      const { context, page, account } = await open(viewport, locale);
      const hello = chatWelcome(account.username, locale);
      try {
        const compressor = await platform.client.findDeviceByCode('CMP-002');
        const discharge = compressor?.check_items.find((item) => item.name === 'Discharge temperature')?.id;
        const before = new Set(
          (await platform.client.lastRecords(compressor?.id ?? 0, 50)).map(({ id }) => id),
        );
        // Scanned before signing in: the device is asked for once the chat runs.
        await page.goto(`${platform.bot.url}/d/CMP-002`);
        await page
          .getByRole('heading', { name: chinese ? '登录后开始巡检' : 'Sign in to start an inspection' })
          .waitFor();
        await submitChatSignIn(page, account);
        const landedWords = chinese
          ? /已通过 .+（CMP-002）的二维码标签打开/
          : /Opened from the QR label of .+ \(CMP-002\)/;
        await page.getByText(landedWords).first().waitFor({ timeout: 20_000 });
        /** The transcript's messages saying the label opened the check (a message's screen-reader text aside). */
        const landed = page.locator('.webchat__basic-transcript__activity').filter({ hasText: landedWords });
        const dischargeCard = page
          .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
          .filter({ hasText: 'Discharge temperature' })
          .first();
        await dischargeCard.waitFor({ timeout: 15_000 });
        await shoot(page, `${tag}-qr-label`);

        // An answer on the card a label opened: the record says presence was shown.
        await dischargeCard.getByRole('button', { name: ok, exact: true }).click();
        const answered = page
          .locator('.ac-adaptiveCard')
          .filter({ hasText: 'Discharge temperature' })
          .filter({ hasText: new RegExp(`${ok} · \\d\\d:\\d\\d · ${account.username}`) })
          .first();
        await answered.waitFor({ timeout: 15_000 });
        const made = (await platform.client.lastRecords(compressor?.id ?? 0, 50)).filter(
          ({ id }) => !before.has(id),
        );
        expect(made.map(({ item, status, source }) => ({ item, status, source }))).toEqual([
          { item: discharge, status: 'ok', source: 'qr' },
        ]);

        // A reload rejoins the same conversation: the transcript with the label's check, the item answered, the
        // label not opened a second time.
        const conversationOf = () =>
          page.evaluate<string | undefined>(
            `JSON.parse(localStorage.getItem('fieldops.chat.conversation') ?? 'null')?.conversationId`,
          );
        const conversation = await conversationOf();
        expect(conversation).toEqual(expect.any(String));
        await page.reload();
        await answered.waitFor({ timeout: 20_000 });
        await page.getByText(hello).first().waitFor();
        await expect(conversationOf()).resolves.toBe(conversation);
        await expect(page.locator('#sign-in').isHidden()).resolves.toBe(true);
        // The bot answers in the rejoined conversation and knows what was answered in it.
        await sendText(page, 'check CMP-002');
        await page
          .getByText(chinese ? /已作答 1\/\d+ 项。/ : /1 of \d+ items answered\./)
          .first()
          .waitFor({ timeout: 15_000 });
        expect(await landed.count()).toBe(1);
        await shoot(page, `${tag}-rejoined`);

        await page.goto(`${platform.bot.url}/?device=NOT-A-DEVICE&locale=${locale}`);
        await page
          .getByText(chinese ? /“NOT-A-DEVICE”没有对应的设备/ : /NOT-A-DEVICE.{1,2} matches no device/)
          .last()
          .waitFor({ timeout: 20_000 });
        await shoot(page, `${tag}-qr-unknown`);

        // The words that come with a card list are a message of their own: nothing clipped at 390 px.
        for (const [command, words] of [
          [
            'devices',
            chinese
              ? /设备（\d+）。请选择一台设备开始检查。/
              : /Devices \(\d+\)\. Choose one to start its check\./,
          ],
          [
            'today',
            chinese
              ? /当前到期（\d+）：|没有到期的检查|目前没有有效的巡检计划/
              : /Due now \(\d+\):|Nothing is due|no active inspection plan/,
          ],
        ] as const) {
          await sendText(page, command);
          const bubble = page.getByText(words).last();
          await bubble.waitFor({ timeout: 15_000 });
          const clipped = await bubble.evaluate(
            (element: {
              scrollWidth: number;
              clientWidth: number;
              scrollHeight: number;
              clientHeight: number;
            }) =>
              element.scrollWidth -
              element.clientWidth +
              Math.max(0, element.scrollHeight - element.clientHeight),
          );
          expect(clipped).toBeLessThanOrEqual(0);
          await bubble.scrollIntoViewIfNeeded();
          await shoot(page, `${tag}-${command}`);
        }
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        // Sign-out, then sign-in on the same page: a working chat every time (welcome, send box, an answer).
        await page.getByRole('button', { name: chinese ? '退出登录' : 'Sign out' }).click();
        await page.getByText(chinese ? '您已退出登录。' : 'You have signed out.').waitFor();
        expect(await page.locator('.webchat__basic-transcript').count()).toBe(0);
        await shoot(page, `${tag}-rejoin-signed-out`);
        expect(await axeViolations(page)).toEqual([]);
        await submitChatSignIn(page, account);
        await page.getByText(hello).first().waitFor({ timeout: 20_000 });
        await expect(
          page.locator('.webchat__send-box').getByRole('textbox').first().isVisible(),
        ).resolves.toBe(true);
        await sendText(page, 'check FE-010');
        await page
          .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
          .filter({ hasText: 'Seal intact' })
          .first()
          .waitFor({ timeout: 15_000 });
        await shoot(page, `${tag}-signed-in-again`);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);
        expect(browserErrors).toEqual([]);
      } finally {
        await shoot(page, `${tag}-qr-last`).catch(() => undefined);
        await context.close();
      }
    }, 180_000);
  }

  for (const [viewport, locale] of [
    ['desktop', 'en-US'],
    ['phone', 'zh-CN'],
    ['desktop', 'zh-CN'],
  ] as const) {
    it(`${viewport} ${locale}: page chrome in the language, a wrong password, item cards, a double tap makes one record and the card shows its answer, no horizontal scrolling, no serious axe violations`, async () => {
      const { context, page, account } = await open(viewport, locale);
      const chinese = locale === 'zh-CN';
      const tag = `${viewport}-${chinese ? 'zh' : 'en'}`;
      try {
        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await page
          .getByRole('heading', { name: chinese ? '登录后开始巡检' : 'Sign in to start an inspection' })
          .waitFor();
        await expect(page.title()).resolves.toBe(chinese ? 'FieldOps 巡检' : 'FieldOps Inspections');
        if (chinese) await expect(page.getByLabel('用户名').isVisible()).resolves.toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        await shoot(page, `${tag}-sign-in`);
        await submitChatSignIn(page, account, 'not-the-password');
        await page
          .getByText(
            chinese ? '用户名或密码错误，请重试。' : 'Wrong user name or password. Please try again.',
          )
          .waitFor();
        // Chromium logs the refused request (401) itself: the one console error this flow expects.
        expect(browserErrors.splice(0)).toEqual([
          expect.stringMatching(/Failed to load resource: the server responded with a status of 401/),
        ]);
        await shoot(page, `${tag}-wrong-password`);
        await submitChatSignIn(page, account);
        await page.getByText(chatWelcome(account.username, locale)).first().waitFor({ timeout: 20_000 });
        await expect(page.locator('#sign-out').textContent()).resolves.toBe(
          chinese ? '退出登录' : 'Sign out',
        );
        const pump = await platform.client.findDeviceByCode('PUMP-001');
        const outlet = pump?.check_items.find((item) => item.name === 'Outlet pressure')?.id;
        // An earlier record with a photo, for history's thumbnail (Outlet pressure stays open to answer).
        const earlier = await platform.client.createRecord({
          device: pump?.id ?? 0,
          item: pump?.check_items.find((item) => item.name === 'Bearing temperature')?.id ?? 0,
          status: 'ok',
          checked_by: account.username,
        });
        await platform.client.attachPhoto(earlier.id, {
          data: PNG,
          name: 'bearing.png',
          contentType: 'image/png',
        });
        const before = new Set((await platform.client.lastRecords(pump?.id ?? 0, 50)).map(({ id }) => id));
        await sendText(page, 'check PUMP-001');
        const outletCard = page
          .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
          .filter({ hasText: 'Outlet pressure' })
          .first();
        await outletCard.waitFor({ timeout: 15_000 });
        // A double tap: one answer on the page, one record, and the card shows its answer instead of its buttons.
        const ok = chinese ? '正常' : 'ok';
        await outletCard.getByRole('button', { name: ok, exact: true }).dblclick();
        const answered = page
          .locator('.ac-adaptiveCard')
          .filter({ hasText: 'Outlet pressure' })
          .filter({ hasText: new RegExp(`${ok} · \\d\\d:\\d\\d · ${account.username}`) })
          .first();
        await answered.waitFor({ timeout: 15_000 });
        expect(await answered.getByRole('button', { name: ok, exact: true }).count()).toBe(0);
        expect(await page.locator('.card-answer').count()).toBe(1);
        const made = (await platform.client.lastRecords(pump?.id ?? 0, 50)).filter(
          ({ id }) => !before.has(id),
        );
        expect(made.map(({ item, status }) => ({ item, status }))).toEqual([{ item: outlet, status: 'ok' }]);
        await answered.scrollIntoViewIfNeeded();
        await shoot(page, `${tag}-answered-card`);
        await sendText(page, 'history PUMP-001');
        await page.locator('.webchat__basic-transcript .ac-image').first().waitFor({ timeout: 15_000 });
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, `${tag}-chat`);
        expect(await axeViolations(page)).toEqual([]);
        expect(browserErrors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }
});
