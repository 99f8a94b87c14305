import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type RunningIdentityProvider, startIdentityProvider } from '@fieldops/testing';
import {
  describeInChromium,
  launchChromium,
  openPage,
  PHONE,
  seriousAxeViolations,
} from '@fieldops/testing/browser';
import { type Browser, type Page } from 'playwright-core';
import { type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

const REPORTS = join(__dirname, '..', '.reports');
const CLIENT = { id: 'inspection-chat-tests', secret: 'inspection-chat-tests-secret' };

describeInChromium(
  'the chat page signs in through the company provider (oidc-provider in its own process), on a phone',
  () => {
    let provider: RunningIdentityProvider;
    let platform: RunningInspectionPlatform;
    let browser: Browser;

    beforeAll(async () => {
      mkdirSync(REPORTS, { recursive: true });
      const [apiPort, idpPort] = [await freePort(), await freePort()];
      provider = await startIdentityProvider({
        port: idpPort,
        redirectUris: [`http://127.0.0.1:${apiPort}/api/oidc/callback/`],
        clients: [CLIENT],
        accounts: { ines: { groups: ['fieldops-inspectors'] }, outsider: { groups: ['sales'] } },
      });
      platform = await startInspectionPlatform({
        apiEnvironment: ({ botPort }) => ({
          INSPECTION_API_PORT: String(apiPort),
          INSPECTION_OIDC_ISSUER: provider.issuer,
          INSPECTION_OIDC_CLIENT_ID: CLIENT.id,
          INSPECTION_OIDC_CLIENT_SECRET: CLIENT.secret,
          INSPECTION_OIDC_SCOPES: 'openid profile groups',
          INSPECTION_OIDC_NAME: 'Example SSO',
          INSPECTION_OIDC_INSPECTOR_VALUES: 'fieldops-inspectors',
          INSPECTION_OIDC_RETURN_ORIGINS: `http://127.0.0.1:${botPort}`,
        }),
      });
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await platform?.close();
      await provider?.stop();
    });

    const atProvider = async (page: Page, login: string): Promise<void> => {
      await page.waitForURL((url) => url.href.startsWith(provider.issuer));
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('any-password');
      await page.locator('button[type="submit"]').click();
      await page.waitForLoadState('load');
      if (page.url().startsWith(provider.issuer)) await page.locator('button[type="submit"]').click();
    };

    it('offers "Sign in with Example SSO" (en, zh-CN), signs the inspector in and returns to the chat', async () => {
      // The provider's own pages are not ours: their console is not checked.
      const { context, page, errors } = await openPage(browser, {
        viewport: PHONE,
        locale: 'en',
        ignore: () => page.url().startsWith(provider.issuer),
      });
      try {
        await page.goto(`${platform.bot.url}/?locale=zh-CN`);
        await page.getByRole('link', { name: '使用 Example SSO 登录' }).waitFor();
        await page.goto(`${platform.bot.url}/?locale=en`);
        const button = page.getByRole('link', { name: 'Sign in with Example SSO' });
        await button.waitFor();
        await expect(page.locator('#password').isVisible()).resolves.toBe(true);
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await page.screenshot({ path: join(REPORTS, 'chat-sign-in-provider.en.phone.png'), fullPage: true });
        await button.click();
        await atProvider(page, 'ines');
        await page.waitForURL((url) => url.href.startsWith(platform.bot.url));
        await page.getByText('Signed in as ines').waitFor({ timeout: 30_000 });
        const session = (await (await page.request.get(`${platform.bot.url}/api/session`)).json()) as {
          user: { username: string } | null;
        };
        expect(session.user?.username).toBe('ines');
        await page.screenshot({
          path: join(REPORTS, 'chat-signed-in-provider.en.phone.png'),
          fullPage: true,
        });
      } finally {
        await context.close();
      }
      expect(errors).toEqual([]);
    }, 180_000);

    it('tells a person none of whose groups may inspect why, in Chinese', async () => {
      const { context, page } = await openPage(browser, { viewport: PHONE, locale: 'zh-CN' });
      try {
        await page.goto(`${platform.bot.url}/?locale=zh-CN`);
        await page.getByRole('link', { name: '使用 Example SSO 登录' }).click();
        await atProvider(page, 'outsider');
        await page
          .getByText('您的公司账号无权使用巡检：请联系管理员把您加入巡检用户组。')
          .waitFor({ timeout: 30_000 });
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);
        await page.screenshot({
          path: join(REPORTS, 'chat-sign-in-refused.zh-CN.phone.png'),
          fullPage: true,
        });
      } finally {
        await context.close();
      }
    }, 120_000);

    it("refuses a return that this browser did not start (another browser's code)", async () => {
      const response = await fetch(`${platform.bot.url}/api/session/oidc/return?binding=x&oidc_code=y`, {
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/?sign_in_error=expired');
      expect(response.headers.get('set-cookie') ?? '').not.toMatch(/fieldops_chat=[^;]{20,}/);
    });
  },
);
