import { join } from 'node:path';
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
  'monthly report subscriptions in Chromium, on the real inspection-api',
  () => {
    let stack: ConsoleStack;
    let plan = 0;

    const api = async <T>(path: string, method = 'GET', body?: unknown): Promise<T> => {
      const response = await fetch(`${stack.api.url}/api/${path}`, {
        method,
        headers: { Authorization: `Bearer ${await stack.token()}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (response.status === 204 ? undefined : await response.json()) as T;
    };

    beforeAll(async () => {
      stack = await startConsoleStack();
      const device = await api<{ id: number }>('devices/', 'POST', { name: 'Feed pump', code: 'P-7' });
      plan = (
        await api<{ id: number }>('plans/', 'POST', {
          name: 'Boiler house round',
          frequency: 'daily',
          devices: [device.id],
        })
      ).id;
    }, 120_000);

    afterAll(() => stack?.close());

    it('en, desktop: empty, then added (the API refusing a bad address under the field), listed, changed', async () => {
      const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
      await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
      await page.waitForURL(/#\/$/);
      await page.goto(`${stack.consoleUrl}?locale=en#/report-subscriptions`);
      await page.getByText('No monthly reports yet.').waitFor({ timeout: 30_000 });

      await page.goto(`${stack.consoleUrl}?locale=en#/report-subscriptions/create`);
      const recipients = page.getByLabel('Recipients');
      await recipients.waitFor({ timeout: 30_000 });
      await page.getByRole('combobox', { name: 'Plan' }).click();
      await page.getByRole('option', { name: 'Boiler house round' }).click();
      await recipients.fill('auditor@example.com\nnot-an-address');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Item 1: Enter a valid email address.').waitFor({ timeout: 30_000 });
      await recipients.fill('auditor@example.com\nplant@example.com');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('cell', { name: 'auditor@example.com, plant@example.com' })
        .waitFor({ timeout: 30_000 });
      await page.getByRole('cell', { name: 'Boiler house round' }).waitFor();
      const [saved] = (await api<{ results: Array<Record<string, unknown>> }>('report-subscriptions/'))
        .results;
      expect(saved).toMatchObject({
        plan,
        device: null,
        recipients: ['auditor@example.com', 'plant@example.com'],
        language: 'en',
        day_of_month: 1,
        send_time: '07:00:00',
      });
      await page.screenshot({
        path: join(SCREENSHOTS, 'report-subscriptions.en.desktop.png'),
        fullPage: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('cell', { name: 'Boiler house round' }).click();
      const day = page.getByLabel('Day of the month');
      await expect(day.inputValue()).resolves.toBe('1');
      await day.fill('3');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('cell', { name: 'auditor@example.com, plant@example.com' })
        .waitFor({ timeout: 30_000 });
      await expect(api(`report-subscriptions/${String(saved?.id)}/`)).resolves.toMatchObject({
        day_of_month: 3,
      });
      await context.close();
    }, 240_000);

    it('zh-CN, phone: the card, the form in Chinese, and removal', async () => {
      const { context, page } = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
      await signIn(page, stack.consoleUrl, 'zh-CN', SUPERVISOR.username, SUPERVISOR.password);
      await page.waitForURL(/#\/$/);
      await page.goto(`${stack.consoleUrl}?locale=zh-CN#/report-subscriptions`);
      const card = page.getByTestId('card-list').getByText('Boiler house round');
      await card.waitFor({ timeout: 30_000 });
      await page.getByText('尚未发送').waitFor();
      await page.screenshot({
        path: join(SCREENSHOTS, 'report-subscriptions.zh-CN.phone.png'),
        fullPage: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await card.click();
      await expect(page.getByLabel('每月日期').inputValue()).resolves.toBe('3');
      await expect(page.getByLabel('时区').inputValue()).resolves.toBe('UTC');
      await page.screenshot({
        path: join(SCREENSHOTS, 'report-subscriptions.edit.zh-CN.phone.png'),
        fullPage: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: '删除' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
      // Back on the list, empty: the deletion went through.
      await page.getByRole('status').getByRole('link').waitFor({ timeout: 30_000 });
      await expect(api<{ count: number }>('report-subscriptions/')).resolves.toMatchObject({ count: 0 });
      await context.close();
      expect(stack.errors).toEqual([]);
    }, 240_000);
  },
);
