import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import {
  INSPECTOR,
  type RunningInspectionPlatform,
  SERVICE_ACCOUNT,
  startInspectionPlatform,
} from './support/platform';

/** Debian's Chromium, headless with the flags of toolchain.md §5 (as the other browser tests). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const REPORTS = join(__dirname, '..', '.reports');
const AXE = require.resolve('axe-core/axe.min.js');

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent) {
  if (process.env.CI) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  console.warn(
    `\n*** SKIPPING the "my actions" browser test: Chromium is not installed at ${CHROMIUM}. ***\n`,
  );
}

interface AxeViolation {
  id: string;
  impact: string | null;
}

(chromiumPresent ? describe : describe.skip)(
  '"my actions" on the chat page at 390×844 (Chromium + Web Chat)',
  () => {
    let platform: RunningInspectionPlatform;
    let browser: Browser;
    let actionId: number;
    let serviceToken: string;

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
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
      serviceToken = (
        (await (
          await fetch(`${platform.api.url}/api/token/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(SERVICE_ACCOUNT),
          })
        ).json()) as { access: string }
      ).access;
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      actionId = (
        (await api('POST', '/api/actions/', {
          title: 'Replace the cracked gauge glass on the cooling water pump',
          assignee: platform.inspectorId,
          due_date: yesterday,
        })) as { id: number }
      ).id;
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await platform?.close();
    });

    it('en: "actions" lists it (overdue marked), Open, a note, Close with photo, the paperclip: done with the photo', async () => {
      const errors: string[] = [];
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      const shoot = (name: string) => page.screenshot({ path: join(REPORTS, `${name}.png`) });
      try {
        await page.goto(`${platform.bot.url}/?locale=en-US`);
        await page.locator('#username').fill(INSPECTOR.username);
        await page.locator('#password').fill(INSPECTOR.password);
        await page.locator('#sign-in-button').click();
        await page.getByText(`Hello ${INSPECTOR.username}!`).first().waitFor({ timeout: 20_000 });

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
        expect(action.transitions.at(-1)).toMatchObject({ to: 'done', by: INSPECTOR.username });
        expect(action.close_out_photo).toMatch(/\/media\/photos\/[0-9a-f]{32}\.png$/);
        await page
          .locator(`.webchat__basic-transcript img[src="${action.close_out_photo}"]`)
          .first()
          .waitFor();
        await shoot('phone-en-action-closed');

        // At 390 px nothing scrolls sideways, and the page stays axe-clean (serious and critical).
        expect(
          await page.evaluate<number>(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          ),
        ).toBeLessThanOrEqual(0);
        await page.evaluate(readFileSync(AXE, 'utf8'));
        const result = await page.evaluate<{ violations: AxeViolation[] }>(
          `axe.run(document, ${JSON.stringify({
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
            resultTypes: ['violations'],
          })})`,
        );
        const serious = result.violations.filter(
          (violation) => violation.impact === 'serious' || violation.impact === 'critical',
        );
        writeFileSync(join(REPORTS, 'axe-my-actions.json'), JSON.stringify(serious, null, 2));
        expect(serious).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await shoot('phone-en-my-actions-last').catch(() => undefined);
        await context.close();
      }
    }, 180_000);
  },
);
