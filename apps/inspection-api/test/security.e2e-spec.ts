import { existsSync } from 'node:fs';
import { slowHeaders, trickleRequest } from '@fieldops/platform';
import { chromium } from 'playwright-core';
import { TestApi } from './support/test-api';

/** JSON text of `"x"` nested `depth` lists deep (JSON.stringify itself would overflow the stack). */
const nested = (depth: number): string => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

/** Probes of the outside security review (issue 15), replayed against inspection-api so none can come back. */
describe('inspection-api security', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_security');
  });
  afterAll(() => api?.close());

  describe('finding 4: text conversion of any input', () => {
    it('10,000-deep nesting in a text or choice field is a 400, never a 500', async () => {
      const json = { 'content-type': 'application/json' };
      const device = await api.call('POST', '/api/devices/', {
        raw: `{"name":${nested(10_000)},"code":"DEEP-1"}`,
        headers: json,
      });
      expect(device.status).toBe(400);
      const plan = await api.call('POST', '/api/plans/', {
        raw: `{"name":"p","frequency":${nested(10_000)},"devices":[1]}`,
        headers: json,
      });
      expect(plan.status).toBe(400);
    });
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent) {
  if (process.env.CI === 'true')
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  console.warn(
    `\n*** SKIPPING the Swagger UI browser check: Chromium is not installed at ${CHROMIUM}. ***\n`,
  );
}

describe('security review: inspection-api', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start('security', { HTTP_HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(() => api.close());

  describe('finding 6: security headers', () => {
    it('sends nosniff, frame and referrer policies and an API CSP on answers and errors', async () => {
      for (const response of [
        await api.call('GET', '/api/devices/'),
        await api.call('GET', '/api/devices/', { token: false }),
      ]) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(response.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it("gives Swagger UI a page CSP (its own origin, inline styles, data: images) that still can't be framed elsewhere", async () => {
      const response = await fetch(`${api.url}/api/docs`);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    });

    (chromiumPresent ? it : it.skip)(
      'Swagger UI loads and renders the operations in Chromium with no CSP violation',
      async () => {
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
        const problems: string[] = [];
        try {
          const page = await browser.newPage();
          page.on('pageerror', (error) => problems.push(error.message));
          page.on('console', (message) => {
            if (message.type() === 'error') problems.push(message.text());
          });
          await page.goto(`${api.url}/api/docs`);
          await page.getByText('/api/devices/').first().waitFor({ timeout: 20_000 });
          await page.locator('.opblock-summary').first().click();
          await page.getByText('Try it out').first().waitFor({ timeout: 10_000 });
          expect(problems).toEqual([]);
        } finally {
          await browser.close();
        }
      },
      60_000,
    );
  });

  describe('finding 10: slow headers', () => {
    it('cuts off a client that trickles its headers after the headers deadline (408)', async () => {
      const port = Number(new URL(api.url).port);
      const slow = await trickleRequest(port, slowHeaders('POST /api/token/ HTTP/1.1'), 200, 8_000);
      expect(slow.closedAfterMs).toBeDefined();
      expect(slow.closedAfterMs).toBeLessThan(3_000);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    }, 15_000);
  });
});
