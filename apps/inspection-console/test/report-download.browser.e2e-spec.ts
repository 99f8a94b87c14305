import { readFileSync } from 'node:fs';
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
  '"Download PDF" in Chromium, on the real inspection-api',
  () => {
    let stack: ConsoleStack;
    let token: string;
    const ids: Record<string, number> = {};

    const api = async <T>(path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${stack.api.url}/api/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };

    /** Clicks through to the PDF; returns its file name and first bytes. */
    const download = async (page: Page, start: () => Promise<void>) => {
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), start()]);
      return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
    };

    beforeAll(async () => {
      stack = await startConsoleStack();
      token = await stack.token();
      ids.device = (
        await api<{ id: number }>('devices/', { name: '泵 1', code: 'P-1', location: 'Hall A' })
      ).id;
      ids.plan = (
        await api<{ id: number }>('plans/', { name: 'Daily', frequency: 'daily', devices: [ids.device] })
      ).id;
      ids.record = (
        await api<{ id: number }>('records/', {
          status: 'fail',
          device: ids.device,
          plan: ids.plan,
          note: 'leak',
        })
      ).id;
    }, 120_000);

    afterAll(() => stack?.close());

    it('downloads the record, device (date range) and plan (period) reports in the console language', async () => {
      for (const locale of ['en', 'zh-CN'] as const) {
        const { context, page } = await stack.newPage({
          locale,
          size: locale === 'en' ? 'desktop' : 'phone',
        });
        const label = locale === 'en' ? 'Download PDF' : '下载 PDF';
        const suffix = locale === 'en' ? '' : '-zh-CN';
        await signIn(page, stack.consoleUrl, locale, SUPERVISOR.username, SUPERVISOR.password);
        await page.waitForURL(/#\/$/);

        await page.goto(`${stack.consoleUrl}?locale=${locale}#/records/${ids.record}/show`);
        const record = await download(page, () => page.getByRole('button', { name: label }).click());
        expect(record.name).toBe(`record-${ids.record}${suffix}.pdf`);
        expect(record.bytes.subarray(0, 5).toString()).toBe('%PDF-');

        await openEditPage(
          page,
          `${stack.consoleUrl}?locale=${locale}#/devices/${ids.device}`,
          'code',
          'P-1',
        );
        await page.getByRole('button', { name: label }).click();
        const form = page.getByRole('dialog', { name: label });
        await form.getByLabel(locale === 'en' ? 'From' : '开始日期').fill('2026-01-01');
        await page.screenshot({ path: join(SCREENSHOTS, `report-download.${locale}.png`) });
        expect(await seriousAxeViolations(page)).toEqual([]);
        const device = await download(page, () => form.getByRole('button', { name: label }).click());
        expect(device.name).toMatch(
          new RegExp(`^device-${ids.device}-2026-01-01-\\d{4}-\\d{2}-\\d{2}${suffix}\\.pdf$`),
        );

        await openEditPage(page, `${stack.consoleUrl}?locale=${locale}#/plans/${ids.plan}`, 'name', 'Daily');
        await page.getByRole('button', { name: label }).click();
        const round = page.getByRole('dialog', { name: label });
        const plan = await download(page, () => round.getByRole('button', { name: label }).click());
        expect(plan.name).toMatch(new RegExp(`^plan-${ids.plan}-\\d{4}-\\d{2}-\\d{2}${suffix}\\.pdf$`));
        await context.close();
      }
      expect(stack.errors).toEqual([]);
    }, 300_000);
  },
);

/**
 * Going from one hash route to another does not load a document, so `page.goto` returns while the last page's
 * "Download PDF" button is still on screen: wait until the edit form shows the record's own value.
 */
async function openEditPage(page: Page, url: string, field: string, value: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(
    ([name, expected]) =>
      (document.querySelector(`input[name="${name}"]`) as { value?: string } | null)?.value === expected,
    [field, value] as const,
  );
}
