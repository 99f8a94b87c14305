import { existsSync, readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

// The browser tests' set-up (`@fieldops/testing/browser`, kept out of the package's index: it loads
// playwright-core): Debian's Chromium, the page a test drives with its errors collected, and axe-core.

/** Debian's Chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, with the flags of toolchain.md §5. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

/**
 * `describe` when Chromium is installed. Without it: under CI an error (a browser test is never skipped there),
 * elsewhere `describe.skip` with a line saying what is skipped.
 */
export function describeInChromium(name: string, tests: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, tests);
    return;
  }
  if (process.env.CI) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  console.warn(`\n*** SKIPPING "${name}": Chromium is not installed at ${CHROMIUM}. ***\n`);
  describe.skip(name, tests);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors and console errors, as `pageerror: …` / `console: …`. */
  errors: string[];
}

/**
 * A fresh browser profile at a viewport and locale with one page, its errors collected. `ignore` leaves out console
 * errors a test expects (Chromium's own "Failed to load resource" line for a refused request, say).
 */
export async function openPage(
  browser: Browser,
  options: {
    viewport: { width: number; height: number };
    locale: string;
    timezoneId?: string;
    errors?: string[];
    ignore?: (text: string) => boolean;
  },
): Promise<OpenedPage> {
  const { viewport, locale, timezoneId, ignore } = options;
  const errors = options.errors ?? [];
  const context = await browser.newContext({ viewport, locale, ...(timezoneId ? { timezoneId } : {}) });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !ignore?.(message.text())) errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; html?: string }>;
}

/**
 * Waits (up to `timeout` ms) for the page's finite animations and CSS transitions to end. A colour read mid-way
 * through a transition (a button turning from disabled to enabled, say) is neither the old colour nor the new one,
 * and axe-core would report its contrast. Endless animations (spinners) are left running.
 */
export async function settledAnimations(page: Page, timeout = 2_000): Promise<void> {
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations()
      .filter((animation) => animation.effect && animation.effect.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, ${timeout})),
  ])`);
}

/**
 * The page's serious and critical axe-core violations of WCAG 2.1 A and AA, read once its transitions have ended.
 * axe-core is evaluated through the DevTools protocol rather than added as a <script>: a page's
 * Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await settledAnimations(page);
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate<{ violations: AxeViolation[] }>(
    `axe.run(document, ${JSON.stringify({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    })})`,
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.slice(0, 5).map(({ target, html }) => ({ target, html })),
    }));
}

/** How far the page scrolls sideways (0 when nothing overflows the viewport). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/** A 1×1 PNG (a photo for a test that only needs one). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
