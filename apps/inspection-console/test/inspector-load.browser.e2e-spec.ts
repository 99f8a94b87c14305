import { join } from 'node:path';
import { type Page, type Route } from 'playwright-core';
import {
  chromiumAvailable,
  type ConsoleStack,
  SCREENSHOTS,
  seriousAxeViolations,
  signIn,
  startConsoleStack,
  SUPERVISOR,
} from './support/console-stack';

const SUMMARY = '**/api/due/summary/**';

(chromiumAvailable() ? describe : describe.skip)(
  "Today's load by person in Chromium, on the real inspection-api",
  () => {
    let stack: ConsoleStack;
    let token: string;
    const ids: Record<string, number> = {};

    const api = async <T>(path: string, body?: unknown, method = 'POST'): Promise<T> => {
      const response = await fetch(`${stack.api.url}/api/${path}`, {
        method: body === undefined ? 'GET' : method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };

    /** The load section's rows as text: the person, then the four counts. */
    const loadRows = (page: Page) =>
      page
        .getByTestId('load-person')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.querySelector('th, h3')?.textContent ?? '',
            ...Array.from(row.querySelectorAll('[data-testid^="load-"]'), (cell) => cell.textContent ?? ''),
          ]),
        );

    beforeAll(async () => {
      stack = await startConsoleStack();
      token = await stack.token();
      for (const username of ['ivy', '王芳'])
        ids[username] = (
          await api<{ id: number }>('users/', { username, password: `${username} password 1` })
        ).id;
      ids.device = (await api<{ id: number }>('devices/', { name: 'Pump 1', code: 'P-1' })).id;
      for (const name of ['Pressure', 'Leaks']) await api('items/', { name, device: ids.device });
    }, 120_000);

    afterAll(() => stack?.close());

    it('en, desktop: loading, the empty state, an error with Retry, then a table of each person', async () => {
      const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
      // Hold the first summary until the loading state has been seen; fail the next one as a cut network does.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      await page.route(SUMMARY, async (route: Route) => {
        calls += 1;
        if (calls === 1) {
          await held;
          return route.continue();
        }
        return route.abort('internetdisconnected');
      });
      await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
      const section = page.getByRole('region', { name: 'Load by person' });
      await section.getByRole('status').getByText('Loading…').waitFor();
      release();
      await section
        .getByText('Nobody has a plan or an open action assigned yet.', { exact: false })
        .waitFor();

      // Ivy has a daily plan and an action without a due date; 王芳 a weekly plan and an overdue action.
      await api('plans/', { name: 'Daily', frequency: 'daily', devices: [ids.device], assignees: [ids.ivy] });
      await api('plans/', {
        name: 'Weekly',
        frequency: 'weekly',
        devices: [ids.device],
        assignees: [ids['王芳']],
      });
      await api('actions/', { title: 'Fix the gauge', assignee: ids.ivy });
      await api('actions/', { title: 'Replace the seal', assignee: ids['王芳'], due_date: '2020-01-01' });

      // A reload whose summary fails (after the client's retries) shows the error and Retry.
      await page.reload();
      await section.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 60_000 });
      await page.unroute(SUMMARY);
      await section.getByRole('button', { name: 'Retry' }).click();
      await section.getByRole('table').waitFor();
      expect(await loadRows(page)).toEqual([
        ['ivy', '2', '0', '1', '0'],
        ['王芳', '2', '0', '1', '1'],
      ]);
      expect(await section.getByRole('columnheader').allTextContents()).toEqual([
        'Person',
        'Checks due',
        'Checks overdue',
        'Open actions',
        'Overdue actions',
      ]);
      await page.screenshot({ path: join(SCREENSHOTS, 'today-load.en.desktop.png'), fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }, 240_000);

    it('zh-CN, phone: a card per person', async () => {
      const { context, page } = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
      await signIn(page, stack.consoleUrl, 'zh-CN', SUPERVISOR.username, SUPERVISOR.password);
      const section = page.getByRole('region', { name: '各人工作量' });
      await section.getByTestId('load-person').first().waitFor({ timeout: 30_000 });
      expect(await section.getByRole('table').count()).toBe(0);
      expect(await loadRows(page)).toEqual([
        ['ivy', '2', '0', '1', '0'],
        ['王芳', '2', '0', '1', '1'],
      ]);
      expect(await section.getByTestId('load-person').last().textContent()).toBe(
        '王芳待检2逾期检查0未完成整改1逾期整改1',
      );
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'today-load.zh-CN.phone.png'), fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Nothing is clipped: no card is wider than the screen.
      const widths = await section
        .getByTestId('load-person')
        .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().right));
      for (const right of widths) expect(right).toBeLessThanOrEqual(390);
      await context.close();
      expect(stack.errors).toEqual([]);
    }, 240_000);

    it("a team's plan counts for each member: picked in the plan form (en, desktop), named in the list and the load (zh-CN, phone)", async () => {
      ids.otto = (await api<{ id: number }>('users/', { username: 'otto', password: 'otto password 1' })).id;
      ids.team = (
        await api<{ id: number }>('teams/', { name: 'Night crew', members: [ids.ivy, ids.otto] })
      ).id;
      ids.night = (
        await api<{ id: number }>('plans/', {
          name: 'Night rounds',
          frequency: 'daily',
          devices: [ids.device],
        })
      ).id;

      const desktop = await stack.newPage({ locale: 'en', size: 'desktop' });
      const { page } = desktop;
      await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
      await page.getByTestId('today-page').waitFor({ timeout: 30_000 });
      await page.goto(`${stack.consoleUrl}?locale=en#/plans/${ids.night}`);
      // The edit page's own content: the plan's name in its field (a hash route change loads no document).
      await page.waitForFunction(
        () => Array.from(document.querySelectorAll('input')).some((input) => input.value === 'Night rounds'),
        undefined,
        { timeout: 30_000 },
      );
      await page.getByRole('combobox', { name: 'Assigned teams' }).click();
      await page.getByRole('option', { name: 'Night crew' }).click();
      await page.keyboard.press('Escape');
      await page.getByText('Every member of these teams counts as an assignee.').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'plan-teams.en.desktop.png'), fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save' }).click();
      const row = page.getByRole('row', { name: /Night rounds/ });
      await row.waitFor({ timeout: 30_000 });
      await row.getByText('team Night crew').waitFor();
      await expect(api(`plans/${ids.night}/`)).resolves.toMatchObject({
        assignees: [],
        assignee_teams: [ids.team],
      });
      // The plan's History names the team.
      await row.click();
      await page
        .getByTestId('audit-history')
        .getByText(/^Team assigned · supervisor · .+Night crew$/)
        .waitFor({ timeout: 30_000 });
      await desktop.context.close();

      const phone = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
      await signIn(phone.page, stack.consoleUrl, 'zh-CN', SUPERVISOR.username, SUPERVISOR.password);
      const section = phone.page.getByRole('region', { name: '各人工作量' });
      await section.getByText('otto', { exact: true }).waitFor({ timeout: 30_000 });
      // Ivy: her daily plan and the team's; otto: the team's; 王芳 unchanged.
      expect(await loadRows(phone.page)).toEqual([
        ['ivy', '4', '0', '1', '0'],
        ['王芳', '2', '0', '1', '1'],
        ['otto', '2', '0', '0', '0'],
      ]);
      await phone.page.goto(`${stack.consoleUrl}?locale=zh-CN#/plans`);
      await phone.page.getByRole('heading', { name: '计划' }).first().waitFor({ timeout: 30_000 });
      const card = phone.page.getByText('负责人：班组 Night crew');
      await card.waitFor({ timeout: 30_000 });
      await phone.page.screenshot({ path: join(SCREENSHOTS, 'plan-teams.zh-CN.phone.png'), fullPage: true });
      expect(await seriousAxeViolations(phone.page)).toEqual([]);
      const right = await card.evaluate((element) => element.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(390);
      await phone.context.close();
      expect(stack.errors).toEqual([]);
    }, 300_000);
  },
);
