import { join } from 'node:path';
import { type Locator, type Page } from 'playwright-core';
import {
  chromiumAvailable,
  type ConsoleStack,
  SCREENSHOTS,
  seriousAxeViolations,
  signIn,
  startConsoleStack,
  SUPERVISOR,
} from './support/console-stack';

interface ApiAction {
  id: number;
  assignee: number | null;
  assignee_team: number | null;
  assignee_team_name: string | null;
}

/** Waits until an input shows `value` (a form filled from the API, not the previous page's). */
async function waitForValue(page: Page, input: Locator, value: string) {
  const handle = await input.elementHandle();
  await page.waitForFunction(([element, expected]) => (element as HTMLInputElement).value === expected, [
    handle,
    value,
  ] as const);
}

(chromiumAvailable() ? describe : describe.skip)('Teams in Chromium, on the real inspection-api', () => {
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

  beforeAll(async () => {
    stack = await startConsoleStack();
    token = await stack.token();
    for (const username of ['ana', 'ben', '王芳'])
      ids[username] = (
        await api<{ id: number }>('users/', { username, password: `${username} password 1` })
      ).id;
    ids.action = (await api<{ id: number }>('actions/', { title: 'Fix the valve', assignee: ids.ana })).id;
    await api('actions/', { title: 'Oil the pump', assignee: ids.ben });
  }, 120_000);

  afterAll(() => stack?.close());

  it('en, desktop: a team of two is made, an action goes to it, the action and the board show the team', async () => {
    const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
    await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
    await page.getByRole('menuitem', { name: 'Teams' }).waitFor({ timeout: 30_000 });
    await page.goto(`${stack.consoleUrl}?locale=en#/teams`);
    await page.getByText('No teams yet.').waitFor({ timeout: 30_000 });
    await page.getByRole('main').getByRole('link', { name: 'Create' }).click();

    await page.getByLabel('Name *').fill('Night shift');
    const members = page.getByRole('combobox', { name: 'Members' });
    await members.fill('ana');
    await page.getByRole('option', { name: /^ana · Inspector/ }).click();
    await members.fill('ben');
    await page.getByRole('option', { name: /^ben · Inspector/ }).click();
    await page.screenshot({ path: join(SCREENSHOTS, 'team-create.en.desktop.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();

    const row = page.getByRole('row', { name: /Night shift/ });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('ana, ben');
    const [team] = (await api<{ results: { id: number; name: string; members: number[] }[] }>('teams/'))
      .results;
    expect(team).toMatchObject({ name: 'Night shift', members: [ids.ana, ids.ben].sort((a, b) => a - b) });
    await page.screenshot({ path: join(SCREENSHOTS, 'teams.en.desktop.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The action, assigned to ana: choosing the team clears her (the API refuses both).
    await page.goto(`${stack.consoleUrl}?locale=en#/actions/${ids.action}`);
    await waitForValue(page, page.getByLabel('Title *'), 'Fix the valve');
    const assignee = page.getByRole('combobox', { name: 'Assignee' });
    await waitForValue(page, assignee, 'ana');
    await page.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Night shift' }).click();
    // An empty assignee reads "—" (the input's empty choice).
    await waitForValue(page, assignee, '—');
    await page.screenshot({ path: join(SCREENSHOTS, 'action-team.en.desktop.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();

    // The action's page names the team.
    await page.getByText('Night shift (team)').waitFor({ timeout: 30_000 });
    expect(await api<ApiAction>(`actions/${ids.action}/`)).toMatchObject({
      assignee: null,
      assignee_team: team.id,
      assignee_team_name: 'Night shift',
    });

    // The board shows the team on the card, and filters by team.
    await page.goto(`${stack.consoleUrl}?locale=en#/actions`);
    const open = page.getByTestId('board-column-open');
    await open.getByRole('heading', { name: 'Open (2)' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId(`action-card-${ids.action}`).textContent()).toContain('Night shift (team)');
    await page.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Night shift' }).click();
    await open.getByRole('heading', { name: 'Open (1)' }).waitFor({ timeout: 30_000 });
    expect(await open.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Fix the valve'),
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'action-board-team.en.desktop.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  }, 240_000);

  it('zh-CN, phone: the teams list is cards', async () => {
    const { context, page } = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
    await signIn(page, stack.consoleUrl, 'zh-CN', SUPERVISOR.username, SUPERVISOR.password);
    await page.waitForURL((url) => url.hash === '#/', { timeout: 30_000 });
    await page.goto(`${stack.consoleUrl}?locale=zh-CN#/teams`);
    const cards = page.getByTestId('card-list');
    await cards.getByText('Night shift').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await cards.getByRole('listitem').allTextContents()).toEqual(['Night shift成员：ana, ben']);
    await page.screenshot({ path: join(SCREENSHOTS, 'teams.zh-CN.phone.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const widths = await cards
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right));
    for (const right of widths) expect(right).toBeLessThanOrEqual(390);
    await context.close();
  }, 240_000);

  it('en, desktop: a member is removed, then the team is deleted and its action left unassigned', async () => {
    const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
    await signIn(page, stack.consoleUrl, 'en', SUPERVISOR.username, SUPERVISOR.password);
    await page.getByRole('menuitem', { name: 'Teams' }).waitFor({ timeout: 30_000 });
    const [team] = (await api<{ results: { id: number }[] }>('teams/')).results;
    await page.goto(`${stack.consoleUrl}?locale=en#/teams/${team.id}`);
    await waitForValue(page, page.getByLabel('Name *'), 'Night shift');
    // Backspace in the empty members input removes the last chip (ben: members are in id order).
    const members = page.getByRole('combobox', { name: 'Members' });
    await members.click();
    await members.press('Backspace');
    await page.getByRole('option', { name: /^ben · Inspector/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.MuiChip-label', { hasText: /^ben/ }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('row', { name: /Night shift/ })
      .getByRole('cell', { name: 'ana', exact: true })
      .waitFor({
        timeout: 30_000,
      });
    expect(await api<{ members: number[] }>(`teams/${team.id}/`)).toMatchObject({ members: [ids.ana] });

    await page.getByRole('row', { name: /Night shift/ }).click();
    await waitForValue(page, page.getByLabel('Name *'), 'Night shift');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('its actions stay, unassigned', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No teams yet.').waitFor({ timeout: 30_000 });
    expect(await api<ApiAction>(`actions/${ids.action}/`)).toMatchObject({
      assignee: null,
      assignee_team: null,
    });
    await context.close();
    expect(stack.errors).toEqual([]);
  }, 240_000);
});
