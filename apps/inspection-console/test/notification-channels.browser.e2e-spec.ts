import { join } from 'node:path';
import { type Page } from 'playwright-core';
import {
  chromiumAvailable,
  type ConsoleStack,
  SCREENSHOTS,
  seriousAxeViolations,
  signIn,
  startConsoleStack,
  SUPERVISOR,
} from './support/console-stack';

(chromiumAvailable() ? describe : describe.skip)(
  'notification channels (chat, email, digest, language) in Chromium, on the real inspection-api',
  () => {
    let stack: ConsoleStack;

    const preferences = async () => {
      const response = await fetch(`${stack.api.url}/api/users/me/notifications/`, {
        headers: { Authorization: `Bearer ${await stack.token()}` },
      });
      return (await response.json()) as Record<string, unknown>;
    };

    /** Opens the signed-in person's preferences and waits for the form (not a previous page's). */
    const open = async (page: Page, locale: string, heading: string) => {
      await page.goto(`${stack.consoleUrl}?locale=${locale}#/notifications`);
      await page
        .getByTestId('notification-preferences')
        .getByRole('heading', { name: heading })
        .waitFor({ timeout: 30_000 });
      await page.locator('input[name="email"]').waitFor();
    };

    beforeAll(async () => {
      stack = await startConsoleStack();
    }, 120_000);

    afterAll(() => stack?.close());

    it('en, desktop: the API refuses a bad address under its input; chat off, an email, no digest, Chinese saved', async () => {
      const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
      await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
      await page.waitForURL(/#\/$/);
      await open(page, 'en', 'My notifications');
      // The defaults: in the chat, no email, the digest on, English.
      await expect(page.getByLabel('In the chat').isChecked()).resolves.toBe(true);
      await expect(page.getByLabel('Daily digest by email').isChecked()).resolves.toBe(true);
      await expect(page.getByLabel('Email address').inputValue()).resolves.toBe('');
      await expect(page.getByRole('combobox', { name: 'Language' }).textContent()).resolves.toBe('English');

      // An address the browser's own check lets through (no dot in the domain) and the API refuses.
      await page.getByLabel('Email address').fill('lead@localhost');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Enter a valid email address.').waitFor({ timeout: 30_000 });
      await page.getByLabel('Email address').fill('lead@example.com');
      await page.getByLabel('In the chat').uncheck();
      await page.getByLabel('Daily digest by email').uncheck();
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: '简体中文' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Notification preferences saved').waitFor({ timeout: 30_000 });
      await expect(preferences()).resolves.toMatchObject({
        email: 'lead@example.com',
        language: 'zh-CN',
        email_digest: false,
        chat: false,
        updated_at: expect.any(String) as unknown,
      });
      await page.screenshot({
        path: join(SCREENSHOTS, 'notification-channels.en.desktop.png'),
        fullPage: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }, 240_000);

    it('zh-CN, phone: the saved choice shows, and clearing the address saves no email', async () => {
      const { context, page } = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
      await signIn(page, stack.consoleUrl, 'zh-CN', SUPERVISOR.username, SUPERVISOR.password);
      await page.waitForURL(/#\/$/);
      await open(page, 'zh-CN', '我的通知');
      await expect(page.getByLabel('邮箱地址').inputValue()).resolves.toBe('lead@example.com');
      await expect(page.getByLabel('在聊天中').isChecked()).resolves.toBe(false);
      await expect(page.getByLabel('每日邮件摘要').isChecked()).resolves.toBe(false);
      await expect(page.getByRole('combobox', { name: '语言' }).textContent()).resolves.toBe('简体中文');
      await page.screenshot({
        path: join(SCREENSHOTS, 'notification-channels.zh-CN.phone.png'),
        fullPage: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByLabel('邮箱地址').fill('');
      await page.getByRole('button', { name: '保存' }).click();
      await page.getByText('通知设置已保存').waitFor({ timeout: 30_000 });
      await expect(preferences()).resolves.toMatchObject({ email: null, language: 'zh-CN', chat: false });
      await context.close();
      expect(stack.errors).toEqual([]);
    }, 240_000);
  },
);
