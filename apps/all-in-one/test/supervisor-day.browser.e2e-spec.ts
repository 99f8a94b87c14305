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
import { openSignedInChat } from '@fieldops/testing/chat-page';
import { type Browser, type Page } from 'playwright-core';
import { type RunningPlatform, startInProcessPlatform } from '../src';

/**
 * Issue 25's walk on the platform `npm start` runs (the four apps in one process, the console served by
 * inspection-api, the demo data): a failed check in the chat opens an action; the supervisor assigns it in the
 * console; the inspector closes it with a note and a photo in the chat's "my actions"; the supervisor verifies it; the
 * action's history shows every step and who did it. Two runs on one platform: the inspector on a phone in English and
 * the supervisor on a desktop in Chinese, then the other way round, so each size and each language is walked on both
 * sides. Its screenshots illustrate docs/use/supervisor.md.
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

  const chromeOptions = {
    timezoneId: 'UTC',
    errors,
    // Chromium logs a refused request itself; the walk checks the statuses it expects.
    ignore: (text: string) => text.startsWith('Failed to load resource'),
  };
  const open = (viewport: typeof PHONE | typeof DESKTOP, locale: string) =>
    openPage(browser, { ...chromeOptions, viewport, locale });

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

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** The words each side's pages and the bot use, per language. */
  const CHAT = {
    en: {
      locale: 'en-US',
      measured: 'Measured value (optional)',
      note: 'Note (optional)',
      fail: 'fail',
      recorded: (item: string) => new RegExp(`Recorded .fail. for ${item}`),
      actions: 'actions',
      closeOutNote: 'What was done (close-out note)',
      closeWithPhoto: 'Close with photo',
      sendPhoto: /Send a photo of the finished work now/,
      closed: (title: string) => new RegExp(`^Closed .${escape(title)}`),
    },
    zh: {
      locale: 'zh-CN',
      measured: '测量值（可选）',
      note: '备注（可选）',
      fail: '故障',
      recorded: (item: string) => new RegExp(`已记录.*${item}`),
      actions: '整改',
      closeOutNote: '处理说明（关闭备注）',
      closeWithPhoto: '拍照并关闭',
      sendPhoto: /现在请发送完工照片/,
      closed: (title: string) => new RegExp(`^已关闭.${escape(title)}`),
    },
  } as const;
  const CONSOLE = {
    en: {
      locale: 'en',
      edit: 'Edit',
      assignee: 'Assignee',
      dueDate: 'Due date',
      save: 'Save',
      photo: 'Close-out photo',
      verify: 'Verify',
      readOnly: 'Verified: this action is closed and read-only.',
      created: 'Created',
      changed: 'Changed',
      label: (label: string) => `${label}: `,
      fields: { status: 'Status', assignee: 'Assignee', note: 'Close-out note' },
      status: { open: 'Open', done: 'Done', verified: 'Verified' },
    },
    zh: {
      locale: 'zh-CN',
      edit: '编辑',
      assignee: '负责人',
      dueDate: '到期日',
      save: '保存',
      photo: '整改完成照片',
      verify: '验证',
      readOnly: '已验证：此整改措施已关闭，只读。',
      created: '已创建',
      changed: '已修改',
      label: (label: string) => `${label}：`,
      fields: { status: '状态', assignee: '负责人', note: '完成说明' },
      status: { open: '待处理', done: '已完成', verified: '已验证' },
    },
  } as const;
  const seenActions = new Set<number>();

  // Each run fails another item of the pump: a check shows an item already answered in the period as answered.
  const RUNS = [
    {
      item: 'Outlet pressure',
      inspector: { size: 'phone', language: 'en' },
      supervisor: { size: 'desktop', language: 'zh' },
    },
    {
      item: 'Bearing temperature',
      inspector: { size: 'desktop', language: 'zh' },
      supervisor: { size: 'phone', language: 'en' },
    },
  ] as const;

  it.each(RUNS)(
    'inspector on a $inspector.size in $inspector.language, supervisor on a $supervisor.size in $supervisor.language: a failed check in the chat → an action → assigned in the console → closed in the chat with a note and a photo → verified → its history shows every step',
    async (run) => {
      const inspector = platform.inspector;
      const consoleSite = platform.console;
      if (!inspector || !platform.chatPageUrl || !consoleSite)
        throw new Error('npm start runs the chat and the console');
      const supervisor = consoleSite.supervisor.username;
      const supervisorApi = await apiAs(supervisor, SUPERVISOR_PASSWORD);
      const sizes = { phone: PHONE, desktop: DESKTOP };
      const words = CHAT[run.inspector.language];
      const deskWords = CONSOLE[run.supervisor.language];
      const inspectorShot = `${run.inspector.size}-${run.inspector.language}`;
      const supervisorShot = `${run.supervisor.size}-${run.supervisor.language}`;
      errors.splice(0);

      // 1. The inspector fails an item (Outlet pressure, then Bearing temperature) on the demo pump in the chat.
      const chat = await openSignedInChat(browser, {
        ...chromeOptions,
        chatUrl: platform.chatPageUrl,
        account: { username: inspector.username, password: INSPECTOR_PASSWORD },
        viewport: sizes[run.inspector.size],
        locale: words.locale,
      });
      const chatPage = chat.page;
      const box = chatPage.locator('.webchat__send-box').getByRole('textbox').first();
      await box.fill('check PUMP-001');
      await box.press('Enter');
      // npm start's chat page opens the inspector's home conversation: the earlier run's cards are in its history
      // too, so the card is the one asking in this run's language.
      const outletCard = chatPage
        .locator('.ac-adaptiveCard', { has: chatPage.getByRole('textbox', { name: words.measured }) })
        .filter({ hasText: run.item })
        .first();
      await outletCard.waitFor({ timeout: 20_000 });
      await outletCard.getByRole('textbox', { name: words.measured }).fill('0.8 bar');
      await outletCard.getByRole('textbox', { name: words.note }).fill('pressure drop at the outlet');
      await outletCard.getByRole('button', { name: words.fail, exact: true }).click();
      await chatPage.getByText(words.recorded(run.item)).first().waitFor({ timeout: 20_000 });
      await shot(chatPage, `day-1-chat-failed-check.${inspectorShot}`);

      // 2. The failure opened an action by itself (the demo plan's "on a failure"), in the record's transaction.
      const failures = await supervisorApi<{ results: { id: number; checked_by: string }[] }>(
        'records/?status=fail',
      );
      const [record] = failures.results
        .filter((candidate) => candidate.checked_by === inspector.username)
        .sort((one, other) => other.id - one.id);
      const opened = await supervisorApi<{
        results: { id: number; title: string; status: string; assignee: number | null }[];
      }>(`actions/?record=${record?.id}`);
      expect(opened.results).toEqual([expect.objectContaining({ status: 'open', assignee: null })]);
      const { id: actionId, title } = opened.results[0] ?? { id: 0, title: '' };
      expect(seenActions.has(actionId)).toBe(false);
      seenActions.add(actionId);

      // 3. The supervisor finds it on the actions board and assigns it to the inspector.
      const desk = await open(sizes[run.supervisor.size], deskWords.locale);
      const consolePage = desk.page;
      await consolePage.goto(`${consoleSite.url}?locale=${deskWords.locale}#/login`);
      await consolePage.locator('input[name="username"]').fill(supervisor);
      await consolePage.locator('input[name="password"]').fill(SUPERVISOR_PASSWORD);
      await consolePage.locator('button[type="submit"]').click();
      await consolePage.getByTestId('today-page').waitFor({ timeout: 30_000 });
      // A hash route: the board's own card is what says the board is on screen.
      await consolePage.goto(`${consoleSite.url}?locale=${deskWords.locale}#/actions`);
      const card = consolePage.getByTestId('board-column-open').getByTestId(`action-card-${actionId}`);
      await card.waitFor({ timeout: 20_000 });
      await shot(consolePage, `day-2-actions-board.${supervisorShot}`);
      await card.click();
      const actionPage = consolePage.getByTestId('action-page');
      await actionPage.waitFor({ timeout: 20_000 });
      await actionPage.getByRole('link', { name: deskWords.edit }).click();
      await consolePage.getByRole('combobox', { name: deskWords.assignee }).click();
      await consolePage.getByRole('option', { name: inspector.username, exact: true }).click();
      await consolePage.getByLabel(deskWords.dueDate).fill('2999-12-31');
      await consolePage.getByRole('button', { name: deskWords.save }).click();
      await actionPage.waitFor({ timeout: 20_000 });
      await expect(supervisorApi(`actions/${actionId}/`)).resolves.toMatchObject({
        assignee_username: inspector.username,
        due_date: '2999-12-31',
        status: 'open',
      });

      // 4. The inspector opens it in the chat's "my actions" and closes it with a note and a photo.
      await box.fill(words.actions);
      await box.press('Enter');
      // The list's card (with the action's button), not the reminder card the assignment sent to the chat.
      const summary = chatPage
        .locator('.ac-adaptiveCard')
        .filter({ hasText: title, has: chatPage.getByRole('button') });
      await summary.first().waitFor({ timeout: 20_000 });
      // The action's own button (in Chinese it reads 待处理, the status word, not 打开: see the report).
      await summary.first().getByRole('button').first().click();
      const actionCard = chatPage
        .locator('.ac-adaptiveCard', { has: chatPage.locator('textarea') })
        .filter({ hasText: title })
        .first();
      await actionCard.waitFor({ timeout: 20_000 });
      const note = `Replaced the outlet gasket; 2.8 bar (${run.inspector.language})`;
      await actionCard.getByRole('textbox', { name: words.closeOutNote }).fill(note);
      await actionCard.getByRole('button', { name: words.closeWithPhoto }).click();
      await chatPage.getByText(words.sendPhoto).first().waitFor({ timeout: 20_000 });
      await chatPage.locator('input[type="file"]').first().setInputFiles({
        name: 'gasket.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await chatPage.getByText(words.closed(title)).first().waitFor({ timeout: 20_000 });
      const closed = await supervisorApi<{ status: string; close_out_photo: string | null }>(
        `actions/${actionId}/`,
      );
      expect(closed.status).toBe('done');
      await chatPage
        .locator(`.webchat__basic-transcript img[src="${closed.close_out_photo}"]`)
        .first()
        .waitFor();
      await shot(chatPage, `day-2-chat-action-closed.${inspectorShot}`);
      expect((await seriousAxeViolations(chatPage)).map(({ id, nodes }) => ({ id, nodes }))).toEqual([]);

      // 5. The supervisor sees it done, with the note and the photo, and verifies it.
      await consolePage.reload();
      // Exactly the note: the action's History also quotes it ("完成说明：— → …").
      await actionPage.getByText(note, { exact: true }).waitFor({ timeout: 20_000 });
      await expect(actionPage.getByRole('img', { name: deskWords.photo }).count()).resolves.toBe(1);
      await consolePage.getByRole('button', { name: deskWords.verify }).click();
      await consolePage.getByText(deskWords.readOnly).waitFor({ timeout: 20_000 });

      // 6. The history shows every step, newest first, each by whom.
      const verifiedLine = `${deskWords.label(deskWords.fields.status)}${deskWords.status.done} → ${deskWords.status.verified}`;
      await consolePage.waitForFunction(
        `document.querySelector('[data-testid="audit-history"] > li')?.textContent?.includes(${JSON.stringify(verifiedLine)})`,
      );
      const history = await consolePage.getByTestId('audit-history').locator(':scope > li').allTextContents();
      const by = (event: string, who: string) => `^${escape(event)} · ${escape(who)} · .+`;
      expect(history).toEqual([
        expect.stringMatching(new RegExp(`${by(deskWords.changed, supervisor)}${escape(verifiedLine)}$`)),
        expect.stringMatching(
          new RegExp(
            `${by(deskWords.changed, inspector.username)}${escape(deskWords.label(deskWords.fields.note))}— → ${escape(note)}`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `${by(deskWords.changed, supervisor)}${escape(deskWords.label(deskWords.fields.assignee))}— → ${escape(inspector.username)}`,
          ),
        ),
        expect.stringMatching(new RegExp(`^${escape(deskWords.created)} · `)),
      ]);
      expect(history[1]).toContain(
        `${deskWords.label(deskWords.fields.status)}${deskWords.status.open} → ${deskWords.status.done}`,
      );
      await expect(supervisorApi(`actions/${actionId}/`)).resolves.toMatchObject({ status: 'verified' });
      expect((await seriousAxeViolations(consolePage)).map(({ id, nodes }) => ({ id, nodes }))).toEqual([]);
      await consolePage.evaluate('window.scrollTo(0, 0)');
      await shot(consolePage, `day-3-action-verified.${supervisorShot}`);
      expect(errors).toEqual([]);
      await chat.context.close();
      await desk.context.close();
    },
    300_000,
  );
});
