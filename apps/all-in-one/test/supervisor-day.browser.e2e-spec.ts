import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@fieldops/database';
import { createLogger } from '@fieldops/platform';
import {
  DESKTOP,
  describeInChromium,
  launchChromium,
  openPage,
  PHONE,
  seriousAxeViolations,
  TINY_PNG as PNG,
} from '@fieldops/testing/browser';
import { type Browser, type Page } from 'playwright-core';
import { type RunningPlatform, startInProcessPlatform } from '../src';

/**
 * Issue 25's walk on the platform `npm start` runs (the four apps in one process, the console served by
 * inspection-api, the demo data): a failed check in the chat opens an action; the supervisor assigns it in the
 * console; the inspector closes it with a note and a photo; the supervisor verifies it; the action's history shows
 * every step. One walk: the inspector's chat on a phone, the console on a desktop (each screen of it is walked at both
 * sizes and in both languages by the console's own browser test). Its screenshots illustrate docs/use/supervisor.md.
 */

const SCREENSHOTS = join(__dirname, '..', '.reports', 'screenshots');
const SUPERVISOR_PASSWORD = 'supervisor-password-for-the-supervisor-day';
const INSPECTOR_PASSWORD = 'inspector-password-for-the-supervisor-day';

describeInChromium('the supervisor’s day on npm start’s platform (Chromium)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let directory: string;
  let platform: RunningPlatform;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL is set by the Jest global setup');
    mkdirSync(SCREENSHOTS, { recursive: true });
    database = await createScratchDatabase(adminUrl, 'supervisor_day');
    directory = mkdtempSync(join(tmpdir(), 'supervisor-day-'));
    platform = await startInProcessPlatform(
      {
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: '0',
        RELAY_GATEWAY_PORT: '0',
        CONNECTOR_GATEWAY_PORT: '0',
        INSPECTION_BOT_PORT: '0',
        INSPECTION_MEDIA_ROOT: join(directory, 'media'),
        INSPECTION_BOT_API_PASSWORD: 'service-account-password-for-the-supervisor-day',
        CONSOLE_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD,
        DEMO_INSPECTOR_PASSWORD: INSPECTOR_PASSWORD,
      },
      createLogger({ service: 'supervisor-day-test', level: 'silent' }),
    );
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await database?.drop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const open = (viewport: typeof PHONE | typeof DESKTOP, locale: string) =>
    openPage(browser, {
      viewport,
      locale,
      timezoneId: 'UTC',
      errors,
      // Chromium logs a refused request itself; the walk checks the statuses it expects.
      ignore: (text) => text.startsWith('Failed to load resource'),
    });

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' });

  /** inspection-api as a person signed in with a password (simplejwt's token pair). */
  const apiAs = async (username: string, password: string) => {
    const api = platform.services.find((service) => service.service === 'inspection-api');
    const base = (api?.url ?? '').replace('//localhost:', '//127.0.0.1:');
    const response = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!response.ok) throw new Error(`token for ${username}: ${response.status}`);
    const { access } = (await response.json()) as { access: string };
    return async <T>(path: string, init: RequestInit = {}): Promise<T> => {
      const answer = await fetch(`${base}/api/${path}`, {
        ...init,
        headers: { authorization: `Bearer ${access}`, ...(init.headers ?? {}) },
      });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as T;
    };
  };

  it('a failed check in the chat → an action → assigned in the console → closed with a note and a photo → verified → its history shows every step', async () => {
    const inspector = platform.inspector;
    const consoleSite = platform.console;
    if (!inspector || !platform.chatPageUrl || !consoleSite)
      throw new Error('npm start runs the chat and the console');
    const supervisorApi = await apiAs(consoleSite.supervisor.username, SUPERVISOR_PASSWORD);
    const inspectorApi = await apiAs(inspector.username, INSPECTOR_PASSWORD);

    // 1. The inspector, on a phone, fails Outlet pressure on the demo pump in the chat.
    const chat = await open(PHONE, 'en-US');
    const chatPage = chat.page;
    await chatPage.goto(`${platform.chatPageUrl}/?locale=en-US`);
    await chatPage.locator('#username').fill(inspector.username);
    await chatPage.locator('#password').fill(INSPECTOR_PASSWORD);
    await chatPage.locator('#sign-in-button').click();
    await chatPage.getByText(`Hello ${inspector.username}!`).first().waitFor({ timeout: 30_000 });
    const box = chatPage.locator('.webchat__send-box').getByRole('textbox').first();
    await box.fill('check PUMP-001');
    await box.press('Enter');
    const outletCard = chatPage
      .locator('.ac-adaptiveCard', { has: chatPage.locator('textarea') })
      .filter({ hasText: 'Outlet pressure' })
      .first();
    await outletCard.waitFor({ timeout: 20_000 });
    await outletCard.getByRole('textbox', { name: 'Measured value (optional)' }).fill('0.8 bar');
    await outletCard.getByRole('textbox', { name: 'Note (optional)' }).fill('pressure drop at the outlet');
    await outletCard.getByRole('button', { name: 'fail', exact: true }).click();
    await chatPage
      .getByText(/Recorded .fail. for Outlet pressure/)
      .first()
      .waitFor({ timeout: 20_000 });
    await shot(chatPage, 'day-1-chat-failed-check.phone');

    // 2. The failure opened an action by itself (the demo plan's "on a failure"), in the record's transaction.
    const failures = await supervisorApi<{ results: { id: number; checked_by: string }[] }>(
      'records/?status=fail',
    );
    const [record] = failures.results;
    expect(record?.checked_by).toBe(inspector.username);
    const opened = await supervisorApi<{
      results: { id: number; status: string; assignee: number | null }[];
    }>(`actions/?record=${record?.id}`);
    expect(opened.results).toEqual([expect.objectContaining({ status: 'open', assignee: null })]);
    const actionId = opened.results[0]?.id ?? 0;

    // 3. The supervisor, on a desktop, finds it on the actions board and assigns it to the inspector.
    const desk = await open(DESKTOP, 'en');
    const consolePage = desk.page;
    await consolePage.goto(`${consoleSite.url}?locale=en#/login`);
    await consolePage.locator('input[name="username"]').fill(consoleSite.supervisor.username);
    await consolePage.locator('input[name="password"]').fill(SUPERVISOR_PASSWORD);
    await consolePage.locator('button[type="submit"]').click();
    await consolePage.getByTestId('today-page').waitFor({ timeout: 30_000 });
    await consolePage.getByRole('menuitem', { name: 'Actions' }).click();
    const card = consolePage.getByTestId('board-column-open').getByTestId(`action-card-${actionId}`);
    await card.waitFor({ timeout: 20_000 });
    await shot(consolePage, 'day-2-actions-board.desktop');
    await card.click();
    const actionPage = consolePage.getByTestId('action-page');
    await actionPage.waitFor({ timeout: 20_000 });
    await actionPage.getByRole('link', { name: 'Edit' }).click();
    await consolePage.getByRole('combobox', { name: 'Assignee' }).click();
    await consolePage.getByRole('option', { name: inspector.username, exact: true }).click();
    await consolePage.getByLabel('Due date').fill('2999-12-31');
    await consolePage.getByRole('button', { name: 'Save' }).click();
    await actionPage.waitFor({ timeout: 20_000 });
    await expect(supervisorApi(`actions/${actionId}/`)).resolves.toMatchObject({
      assignee: expect.any(Number),
      assignee_username: inspector.username,
      due_date: '2999-12-31',
      status: 'open',
    });

    // 4. The inspector starts it and closes it out with a note and a photo, through the API (the chat's own
    //    "my actions" is not part of this walk).
    await inspectorApi(`actions/${actionId}/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'in_progress' }),
    });
    const closeOut = new FormData();
    closeOut.append('status', 'done');
    closeOut.append('close_out_note', 'Replaced the outlet gasket; 2.8 bar');
    closeOut.append('close_out_photo', new Blob([PNG], { type: 'image/png' }), 'gasket.png');
    await expect(
      inspectorApi(`actions/${actionId}/`, { method: 'PATCH', body: closeOut }),
    ).resolves.toMatchObject({
      status: 'done',
      close_out_photo: expect.stringMatching(/\/media\//),
    });

    // 5. The supervisor sees it done, with the note and the photo, and verifies it.
    await consolePage.reload();
    await actionPage.getByText('Replaced the outlet gasket; 2.8 bar').waitFor({ timeout: 20_000 });
    await expect(actionPage.getByRole('img', { name: 'Close-out photo' }).count()).resolves.toBe(1);
    await consolePage.getByRole('button', { name: 'Verify' }).click();
    await consolePage
      .getByText('Verified: this action is closed and read-only.')
      .waitFor({ timeout: 20_000 });

    // 6. The history shows every step, newest first, each by whom.
    await consolePage.waitForFunction(
      `document.querySelector('[data-testid="audit-history"] > li')?.textContent?.includes('Status: Done → Verified')`,
    );
    const history = await consolePage.getByTestId('audit-history').locator(':scope > li').allTextContents();
    const supervisor = consoleSite.supervisor.username;
    expect(history).toEqual([
      expect.stringMatching(new RegExp(`^Changed · ${supervisor} · .+Status: Done → Verified$`)),
      expect.stringMatching(
        new RegExp(
          `^Changed · ${inspector.username} · .+Close-out note: — → Replaced the outlet gasket; 2\\.8 bar`,
        ),
      ),
      expect.stringMatching(new RegExp(`^Changed · ${inspector.username} · .+Status: Open → In progress$`)),
      expect.stringMatching(new RegExp(`^Changed · ${supervisor} · .+Assignee: — → ${inspector.username}`)),
      expect.stringMatching(/^Created · /),
    ]);
    expect(history[1]).toContain('Status: In progress → Done');
    await expect(supervisorApi(`actions/${actionId}/`)).resolves.toMatchObject({ status: 'verified' });
    expect((await seriousAxeViolations(consolePage)).map(({ id, nodes }) => ({ id, nodes }))).toEqual([]);
    await shot(consolePage, 'day-3-action-verified.desktop');
    await consolePage.setViewportSize(PHONE);
    await consolePage.evaluate('window.scrollTo(0, 0)');
    await shot(consolePage, 'day-3-action-verified.phone');
    expect(errors).toEqual([]);
    await chat.context.close();
    await desk.context.close();
  }, 300_000);
});
