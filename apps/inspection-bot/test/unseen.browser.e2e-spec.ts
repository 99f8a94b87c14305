import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DESKTOP,
  describeInChromium,
  horizontalOverflow,
  launchChromium,
  PHONE,
  seriousAxeViolations,
} from '@fieldops/testing/browser';
import { openSignedInChat, type TestAccount } from '@fieldops/testing/chat-page';
import { type Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  NOTIFICATIONS_SECRET,
  type RunningInspectionPlatform,
  startInspectionPlatform,
} from './support/platform';

const REPORTS = join(__dirname, '..', '.reports');

/**
 * The chat page's "N new": a proactive card the bot sends while the page is closed (through its notifications
 * endpoint, as inspection-api hands it over) shows as new when the page opens again, in the header and above the
 * card, and not once it has been seen. At 390×844 in English and on a desktop in Chinese.
 */
describeInChromium('the chat page marks what arrived while it was closed ("N new")', () => {
  let platform: RunningInspectionPlatform;
  let browser: Browser;
  let notifications = 0;

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    platform = await startInspectionPlatform();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /** A failed check's alert for the account, handed to the bot signed, as inspection-api does. */
  const notify = async (account: TestAccount, language: 'en' | 'zh-CN', title: string): Promise<void> => {
    notifications += 1;
    const id = `unseen-${notifications}`;
    const body = JSON.stringify({
      id,
      type: 'record.failed',
      occurred_at: new Date().toISOString(),
      recipient: { id: account.id, username: account.username, role: account.role, language },
      data: {},
      names: { device: 'FE-010', item: 'Seal intact', plan: null },
      message: { title, lines: [], link: null, link_label: 'Open in the console' },
    });
    const now = new Date();
    const response = await fetch(`${platform.bot.url}/api/notifications`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': `notification_${id}`,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(NOTIFICATIONS_SECRET).sign(`notification_${id}`, now, body),
      },
      body,
    });
    expect(response.status).toBe(200);
  };

  for (const [viewport, locale] of [
    ['phone', 'en-US'],
    ['desktop', 'zh-CN'],
  ] as const) {
    const chinese = locale === 'zh-CN';
    const tag = `${viewport}-${chinese ? 'zh' : 'en'}`;
    const oneNew = chinese ? '1 条新消息' : '1 new';
    const title = chinese
      ? '检查故障：FE-010 灭火器 — 密封完好'
      : 'Check failed: FE-010 Extinguisher — Seal intact';
    it(`${tag}: a card sent while the page was closed shows as "${oneNew}" when it opens, and not once seen`, async () => {
      const { context, page, errors, account } = await openSignedInChat(browser, {
        chatUrl: platform.bot.url,
        api: platform.accounts,
        viewport: viewport === 'phone' ? PHONE : DESKTOP,
        locale,
      });
      const shoot = (name: string) => page.screenshot({ path: join(REPORTS, `unseen-${tag}-${name}.png`) });
      try {
        const badge = page.locator('#unseen');
        const line = page.locator('.unseen-line');
        const card = page.locator('.webchat__basic-transcript__activity').filter({ hasText: title });
        // Signed in: the welcome is no news.
        await expect(badge.isHidden()).resolves.toBe(true);

        // The page is closed; the bot sends the alert; the page opens again (the session lives on).
        await page.goto('about:blank');
        await notify(account, chinese ? 'zh-CN' : 'en', title);
        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await card.first().waitFor({ timeout: 30_000 });
        await badge.filter({ hasText: new RegExp(`^${oneNew}$`) }).waitFor({ timeout: 10_000 });
        await expect(line.count()).resolves.toBe(1);
        await expect(line.textContent()).resolves.toBe(oneNew);
        // The line stands above the card: in the card's own place in the transcript.
        await expect(card.locator('.unseen-line').count()).resolves.toBe(1);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot('opened');
        const serious = await seriousAxeViolations(page);
        writeFileSync(join(REPORTS, `axe-unseen-${tag}.json`), JSON.stringify(serious, null, 2));
        expect(serious).toEqual([]);

        // Seen: opened again, the card is there and nothing is new.
        await page.reload();
        await card.first().waitFor({ timeout: 30_000 });
        await page.locator('.webchat__send-box').getByRole('textbox').first().waitFor({ timeout: 30_000 });
        await expect(badge.isHidden()).resolves.toBe(true);
        await expect(line.count()).resolves.toBe(0);

        // Another card while the page is closed: "1 new" again; the header's marker goes to it, and is gone.
        await page.goto('about:blank');
        await notify(account, chinese ? 'zh-CN' : 'en', `${title} (2)`);
        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await page.getByText(`${title} (2)`).first().waitFor({ timeout: 30_000 });
        await badge.filter({ hasText: new RegExp(`^${oneNew}$`) }).waitFor({ timeout: 10_000 });
        await badge.click();
        await badge.waitFor({ state: 'hidden' });
        await expect(line.count()).resolves.toBe(0);
        await shoot('seen');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
