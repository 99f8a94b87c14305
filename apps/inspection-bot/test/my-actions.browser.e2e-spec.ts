import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  describeInChromium,
  horizontalOverflow,
  launchChromium,
  PHONE,
  seriousAxeViolations,
  TINY_PNG as PNG,
} from '@fieldops/testing/browser';
import { createAccount, openSignedInChat, type TestAccount } from '@fieldops/testing/chat-page';
import { type Browser } from 'playwright-core';
import {
  accessToken,
  type RunningInspectionPlatform,
  SERVICE_ACCOUNT,
  startInspectionPlatform,
} from './support/platform';

const REPORTS = join(__dirname, '..', '.reports');

describeInChromium('"my actions" on the chat page at 390×844 (Chromium + Web Chat)', () => {
  let platform: RunningInspectionPlatform;
  let browser: Browser;
  let actionId: number;
  let serviceToken: string;
  /** The inspector the action is assigned to, who signs in on the chat page. */
  let inspector: TestAccount;

  const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${platform.api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${serviceToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await response.json();
  };

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    platform = await startInspectionPlatform();
    browser = await launchChromium();
    serviceToken = await accessToken(platform, SERVICE_ACCOUNT);
    inspector = await createAccount(platform.accounts);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    actionId = (
      (await api('POST', '/api/actions/', {
        title: 'Replace the cracked gauge glass on the cooling water pump',
        assignee: inspector.id,
        due_date: yesterday,
      })) as { id: number }
    ).id;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it('en: "actions" lists it (overdue marked), Open, a note, Close with photo, the paperclip: done with the photo', async () => {
    const { context, page, errors } = await openSignedInChat(browser, {
      chatUrl: platform.bot.url,
      account: inspector,
      viewport: PHONE,
      locale: 'en-US',
    });
    const shoot = (name: string) => page.screenshot({ path: join(REPORTS, `${name}.png`) });
    try {
      const box = page.locator('.webchat__send-box').getByRole('textbox').first();
      await box.fill('actions');
      await box.press('Enter');
      const summary = page
        .locator('.ac-adaptiveCard')
        .filter({ hasText: 'Overdue: Replace the cracked gauge glass' });
      await summary.first().waitFor({ timeout: 20_000 });
      await shoot('phone-en-my-actions');
      await summary.first().getByRole('button', { name: 'Open' }).click();

      const card = page
        .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
        .filter({ hasText: 'Replace the cracked gauge glass' })
        .first();
      await card.waitFor({ timeout: 20_000 });
      await card.getByRole('textbox', { name: 'What was done (close-out note)' }).fill('New glass fitted');
      await card.getByRole('button', { name: 'Close with photo' }).click();
      await page
        .getByText(/Send a photo of the finished work now/)
        .first()
        .waitFor({ timeout: 20_000 });

      await page.locator('input[type="file"]').first().setInputFiles({
        name: 'gauge-fixed.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await page
        .getByText(/Closed .Replace the cracked gauge glass/)
        .first()
        .waitFor({ timeout: 20_000 });

      const action = (await api('GET', `/api/actions/${actionId}/`)) as {
        status: string;
        close_out_note: string;
        close_out_photo: string | null;
        transitions: Array<{ to: string; by: string }>;
      };
      expect(action).toMatchObject({ status: 'done', close_out_note: 'New glass fitted' });
      expect(action.transitions.at(-1)).toMatchObject({ to: 'done', by: inspector.username });
      expect(action.close_out_photo).toMatch(/\/media\/photos\/[0-9a-f]{32}\.png$/);
      await page.locator(`.webchat__basic-transcript img[src="${action.close_out_photo}"]`).first().waitFor();
      await shoot('phone-en-action-closed');

      // At 390 px nothing scrolls sideways, and the page stays axe-clean (serious and critical).
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      const serious = await seriousAxeViolations(page);
      writeFileSync(join(REPORTS, 'axe-my-actions.json'), JSON.stringify(serious, null, 2));
      expect(serious).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await shoot('phone-en-my-actions-last').catch(() => undefined);
      await context.close();
    }
  }, 180_000);
});
