import { join } from 'node:path';
import { freePort, type RunningIdentityProvider, startIdentityProvider } from '@fieldops/testing';
import { type Page } from 'playwright-core';
import {
  chromiumAvailable,
  type ConsoleStack,
  SCREENSHOTS,
  seriousAxeViolations,
  startConsoleStack,
} from './support/console-stack';

const CLIENT = { id: 'inspection-console-tests', secret: 'inspection-console-tests-secret' };

/** Signs in at oidc-provider's development pages (any password) and consents. */
async function atProvider(page: Page, issuer: string, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.locator('button[type="submit"]').click();
  await page.waitForLoadState('load');
  if (page.url().startsWith(issuer)) await page.locator('button[type="submit"]').click();
}

(chromiumAvailable() ? describe : describe.skip)(
  'the console signs in through the company provider (oidc-provider in its own process), in Chromium',
  () => {
    let provider: RunningIdentityProvider;
    let stack: ConsoleStack;

    beforeAll(async () => {
      const [apiPort, idpPort] = [await freePort(), await freePort()];
      provider = await startIdentityProvider({
        port: idpPort,
        redirectUris: [`http://127.0.0.1:${apiPort}/api/oidc/callback/`],
        clients: [CLIENT],
        accounts: { sam: { groups: ['fieldops-supervisors'] }, outsider: { groups: ['sales'] } },
      });
      stack = await startConsoleStack({
        INSPECTION_API_PORT: String(apiPort),
        INSPECTION_OIDC_ISSUER: provider.issuer,
        INSPECTION_OIDC_CLIENT_ID: CLIENT.id,
        INSPECTION_OIDC_CLIENT_SECRET: CLIENT.secret,
        INSPECTION_OIDC_SCOPES: 'openid profile groups',
        INSPECTION_OIDC_NAME: 'Example SSO',
        INSPECTION_OIDC_SUPERVISOR_VALUES: 'fieldops-supervisors',
        INSPECTION_OIDC_INSPECTOR_VALUES: 'fieldops-inspectors',
      });
    }, 90_000);

    afterAll(async () => {
      await stack?.close();
      await provider?.stop();
    });

    it('offers "Sign in with Example SSO" and returns to the screen the person asked for', async () => {
      const { context, page } = await stack.newPage({ locale: 'en', size: 'desktop' });
      try {
        await page.goto(`${stack.consoleUrl}?locale=en#/plans`);
        const button = page.getByRole('link', { name: 'Sign in with Example SSO' });
        await button.waitFor();
        await expect(page.locator('input[name="password"]').count()).resolves.toBe(1);
        await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-provider.en.desktop.png'), fullPage: true });
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await button.click();
        await page.waitForURL((url) => url.href.startsWith(provider.issuer));
        await atProvider(page, provider.issuer, 'sam');
        await page.waitForURL((url) => url.href.startsWith(stack.consoleUrl) && url.hash === '#/plans');
        await page.getByText('No plans yet.').waitFor({ timeout: 20_000 });
        expect(new URL(page.url()).searchParams.has('oidc_code')).toBe(false);
        const me = await page.evaluate(() => localStorage.getItem('fieldops.console.user'));
        expect(JSON.parse(me ?? 'null')).toMatchObject({ username: 'sam', role: 'supervisor' });
      } finally {
        await context.close();
      }
      expect(stack.errors).toEqual([]);
    }, 90_000);

    it('in Chinese on a phone: the button, and the reason a refused person is told', async () => {
      const { context, page } = await stack.newPage({ locale: 'zh-CN', size: 'phone' });
      try {
        await page.goto(`${stack.consoleUrl}?locale=zh-CN#/login`);
        const button = page.getByRole('link', { name: '使用 Example SSO 登录' });
        await button.waitFor();
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await page.screenshot({
          path: join(SCREENSHOTS, 'sign-in-provider.zh-CN.phone.png'),
          fullPage: true,
        });
        await button.click();
        await page.waitForURL((url) => url.href.startsWith(provider.issuer));
        await atProvider(page, provider.issuer, 'outsider');
        await page
          .getByTestId('provider-error')
          .getByText('您的公司账号无权使用控制台：请联系管理员把您加入巡检用户组。')
          .waitFor({ timeout: 20_000 });
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-refused.zh-CN.phone.png'), fullPage: true });
      } finally {
        await context.close();
      }
      expect(stack.errors).toEqual([]);
    }, 90_000);
  },
);
