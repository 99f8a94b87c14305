import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type RunningService } from '@fieldops/platform';
import { CHROMIUM, DESKTOP, launchChromium, PHONE } from '@fieldops/testing/browser';
export { type AxeViolation, seriousAxeViolations } from '@fieldops/testing/browser';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CONSOLE_DIST = join(__dirname, '..', '..', 'dist');
export const REPORTS = join(__dirname, '..', '..', '.reports');
export const SCREENSHOTS = join(REPORTS, 'screenshots');
export const SUPERVISOR = { username: 'supervisor', password: 'supervisor-password-for-console-tests' };

/**
 * The sizes every screen is walked at: a desktop and a phone. (A 768 px tablet was dropped: it showed only the
 * folded menu and tables scrolling in their card, which the desktop's tables and the phone's cards already cover.)
 */
export const SIZES = {
  desktop: DESKTOP,
  phone: PHONE,
} as const;
export type SizeName = keyof typeof SIZES;
export const SIZE_NAMES = Object.keys(SIZES) as SizeName[];

/** Whether the browser test can run: skip loudly outside CI without Chromium, fail in CI. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  console.warn(
    `\n*** SKIPPING the console browser test: Chromium is not installed at ${CHROMIUM}. ` +
      'Install it with `apt-get install -y --no-install-recommends chromium` (CI fails instead of skipping). ***\n',
  );
  return false;
}

export interface ConsoleStack {
  api: RunningService;
  browser: Browser;
  /** The console's URL (`<api>/console/`). */
  consoleUrl: string;
  /** A bearer token of the supervisor, for calls made "through the API" in the test. */
  token(username?: string, password?: string): Promise<string>;
  /** A signed-out browser context in a locale (and time zone: UTC unless named), its page errors in `errors`. */
  newPage(options: {
    locale: 'en' | 'zh-CN';
    size: SizeName;
    timezoneId?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
  errors: string[];
  close(): Promise<void>;
}

/**
 * The real inspection-api on a scratch PostgreSQL database, serving the built console at `/console/`
 * (`INSPECTION_CONSOLE_DIR`, as npm start does), and Debian's Chromium. `environment` adds to the API's.
 */
export async function startConsoleStack(environment: Record<string, string> = {}): Promise<ConsoleStack> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is set by the Jest global setup');
  if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
    throw new Error(`${CONSOLE_DIST} has no index.html: npm run build -w @fieldops/inspection-console first`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const database = await createScratchDatabase(adminUrl, 'inspection_console');
  const directory = mkdtempSync(join(tmpdir(), 'inspection-console-'));
  const api = await startInspectionApi({
    environment: {
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: database.url,
      INSPECTION_API_PORT: '0',
      INSPECTION_MEDIA_ROOT: join(directory, 'media'),
      INSPECTION_CONSOLE_DIR: CONSOLE_DIST,
      INSPECTION_ADMIN_USERNAME: SUPERVISOR.username,
      INSPECTION_ADMIN_PASSWORD: SUPERVISOR.password,
      // The webhook receiver the browser test starts listens on 127.0.0.1.
      INSPECTION_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      ...environment,
    },
  });
  const browser = await launchChromium();
  const errors: string[] = [];
  const consoleUrl = `${api.url}/console/`;
  return {
    api,
    browser,
    consoleUrl,
    errors,
    async token(username = SUPERVISOR.username, password = SUPERVISOR.password) {
      const response = await fetch(`${api.url}/api/token/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (!response.ok) throw new Error(`token for ${username}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { access: string }).access;
    },
    async newPage({ locale, size, timezoneId = 'UTC' }) {
      const context = await browser.newContext({
        viewport: SIZES[size],
        locale,
        timezoneId,
        acceptDownloads: true,
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(`${locale} ${size}: ${error.message}`));
      page.on('console', (message) => {
        // Chromium logs every 4xx/5xx response as "Failed to load resource"; the flows assert the statuses they expect.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          errors.push(`${locale} ${size} console: ${message.text()}`);
      });
      return { context, page };
    },
    async close() {
      await browser.close();
      await api.close();
      await database.drop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Signs in through the console's own sign-in form. */
export async function signIn(
  page: Page,
  consoleUrl: string,
  locale: string,
  username: string,
  password: string,
) {
  await page.goto(`${consoleUrl}?locale=${locale}#/login`);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
}
