import { join } from 'node:path';
import { waitFor } from '@fieldops/testing';
import {
  chromiumAvailable,
  type ConsoleStack,
  SCREENSHOTS,
  seriousAxeViolations,
  signIn,
  startConsoleStack,
  SUPERVISOR,
} from './support/console-stack';

const WORDS = {
  en: {
    banner: /^You are offline\. What you save now waits in this tab/,
    save: 'Save',
    noConnectivity: 'No connectivity. Could not fetch data.',
  },
  'zh-CN': {
    banner: /^您已离线。现在保存的内容会留在此标签页中/,
    save: '保存',
    noConnectivity: '无网络连接，无法获取数据。',
  },
} as const;

(chromiumAvailable() ? describe : describe.skip)(
  'the console with the network cut (Chromium, the real inspection-api)',
  () => {
    let stack: ConsoleStack;
    let token: string;

    const device = async (id: number) => {
      const response = await fetch(`${stack.api.url}/api/devices/${id}/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return (await response.json()) as { name: string };
    };

    beforeAll(async () => {
      stack = await startConsoleStack();
      token = await stack.token();
    }, 120_000);

    afterAll(() => stack?.close());

    it.each([
      ['en', 'phone'],
      ['zh-CN', 'desktop'],
    ] as const)(
      '%s, %s: offline the page says so, a list says it cannot load, and a device saved offline is saved once back online',
      async (locale, size) => {
        const words = WORDS[locale];
        const code = `OFF-${locale}-${size}`;
        const created = await fetch(`${stack.api.url}/api/devices/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ code, name: 'Feed pump', location: 'Hall 2' }),
        });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: number };

        const { context, page } = await stack.newPage({ locale, size });
        await signIn(page, stack.consoleUrl, locale, SUPERVISOR.username, SUPERVISOR.password);
        await page.waitForURL(/#\/$/);

        // A list opened offline says it cannot load (react-admin's state), under the offline banner.
        await context.setOffline(true);
        await page.goto(`${stack.consoleUrl}?locale=${locale}#/records`);
        await page.getByTestId('offline-banner').getByText(words.banner).waitFor({ timeout: 30_000 });
        await page.getByText(words.noConnectivity).first().waitFor({ timeout: 30_000 });
        await context.setOffline(false);
        await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 30_000 });

        // The device's edit form, loaded online; then the network is cut and a new name is saved.
        await page.goto(`${stack.consoleUrl}?locale=${locale}#/devices/${id}`);
        const name = page.locator('input[name="name"]');
        await waitFor(
          async () => (await name.inputValue().catch(() => '')) === 'Feed pump',
          'the edit form',
          30_000,
        );
        await context.setOffline(true);
        await page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
        await name.fill('Feed pump (renamed offline)');
        await page.getByRole('button', { name: words.save }).click();
        await page.screenshot({
          path: join(SCREENSHOTS, `offline-save.${locale}.${size}.png`),
          fullPage: true,
        });
        expect(await seriousAxeViolations(page)).toEqual([]);
        // Nothing reached the API while offline, and the form still holds what was typed.
        expect((await device(id)).name).toBe('Feed pump');
        await expect(name.inputValue()).resolves.toBe('Feed pump (renamed offline)');

        // Back online, the held save is sent once, without the person doing anything.
        await context.setOffline(false);
        await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 30_000 });
        await waitFor(
          async () => (await device(id)).name === 'Feed pump (renamed offline)',
          'the save held offline to reach the API',
          30_000,
          250,
        );
        const trail = await fetch(`${stack.api.url}/api/audit/?resource=device&resource_id=${id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const entries = ((await trail.json()) as { results: Array<{ event: string }> }).results;
        expect(entries.filter((entry) => entry.event === 'updated')).toHaveLength(1);
        expect(stack.errors).toEqual([]);
        await context.close();
      },
      240_000,
    );
  },
);
