import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { INSPECTOR, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

/** Debian's Chromium, headless with the flags of toolchain.md §5 (as webchat.browser.e2e-spec.ts). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const REPORTS = join(__dirname, '..', '.reports');
const AXE = require.resolve('axe-core/axe.min.js');
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent && process.env.CI) {
  throw new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; html?: string }>;
}

/** A JPEG's pixel size (its SOF segment) and whether it carries an EXIF (APP1) segment. */
function jpegInfo(bytes: Buffer): { width: number; height: number; exif: boolean } {
  let exif = false;
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes.readUInt16BE(offset);
    const length = bytes.readUInt16BE(offset + 2);
    if (marker === 0xffe1 && bytes.toString('latin1', offset + 4, offset + 8) === 'Exif') exif = true;
    if (marker >= 0xffc0 && marker <= 0xffc3) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7), exif };
    }
    offset += 2 + length;
  }
  throw new Error('not a JPEG');
}

/**
 * A camera-like JPEG's EXIF segment: orientation 6 (the sensor's landscape picture is shown rotated to portrait)
 * and a GPS IFD pointer, as a phone writes them.
 */
function exifSegment(): Buffer {
  const tiff = Buffer.alloc(38);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8); // two entries
  tiff.writeUInt16LE(0x0112, 10); // Orientation
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(6, 18);
  tiff.writeUInt16LE(0x8825, 22); // GPSInfo IFD pointer
  tiff.writeUInt16LE(4, 24);
  tiff.writeUInt32LE(1, 26);
  tiff.writeUInt32LE(0, 30);
  tiff.writeUInt32LE(0, 34); // no next IFD
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

(chromiumPresent ? describe : describe.skip)(
  'the chat page offline and back (outbox, service worker, photos)',
  () => {
    let platform: RunningInspectionPlatform;
    let browser: Browser;
    /** A 4000×3000 camera-like JPEG (several MB), with the EXIF segment of a phone. */
    let cameraPhoto: Buffer;
    const browserErrors: string[] = [];

    beforeAll(async () => {
      mkdirSync(REPORTS, { recursive: true });
      platform = await startInspectionPlatform();
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
      const page = await browser.newPage();
      // Drawn and encoded by the browser: gradients and fine noise, as a sensor's picture compresses.
      const base64 = await page.evaluate<string>(`(async () => {
      const canvas = new OffscreenCanvas(4000, 3000);
      const context = canvas.getContext('2d');
      const gradient = context.createLinearGradient(0, 0, 4000, 3000);
      gradient.addColorStop(0, '#3a6b8f'); gradient.addColorStop(1, '#d9a441');
      context.fillStyle = gradient; context.fillRect(0, 0, 4000, 3000);
      const noise = context.getImageData(0, 0, 4000, 3000);
      let seed = 7;
      for (let i = 0; i < noise.data.length; i += 4) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = (seed % 61) - 30;
        noise.data[i] += n; noise.data[i + 1] += n; noise.data[i + 2] += n;
      }
      context.putImageData(noise, 0, 0);
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.93 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
      return btoa(text);
    })()`);
      await page.close();
      const plain = Buffer.from(base64, 'base64');
      cameraPhoto = Buffer.concat([plain.subarray(0, 2), exifSegment(), plain.subarray(2)]);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await platform?.close();
    });

    const open = async (
      viewport: keyof typeof VIEWPORTS,
      locale: string,
    ): Promise<{ context: BrowserContext; page: Page }> => {
      browserErrors.splice(0);
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale });
      const page = await context.newPage();
      page.on('pageerror', (error) => browserErrors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') browserErrors.push(`console: ${message.text()}`);
      });
      return { context, page };
    };

    const signIn = async (page: Page): Promise<void> => {
      await page.locator('#username').fill(INSPECTOR.username);
      await page.locator('#password').fill(INSPECTOR.password);
      await page.locator('#sign-in-button').click();
    };

    const sendText = async (page: Page, text: string): Promise<void> => {
      const box = page.locator('.webchat__send-box').getByRole('textbox').first();
      await box.fill(text);
      await box.press('Enter');
    };

    const itemCard = (page: Page, item: string) =>
      page
        .locator('.ac-adaptiveCard', { has: page.locator('textarea') })
        .filter({ hasText: item })
        .first();

    const attachPhoto = (page: Page, name: string, buffer: Buffer) =>
      page.locator('input[type="file"]').first().setInputFiles({ name, mimeType: 'image/jpeg', buffer });

    const axeViolations = async (page: Page, name: string): Promise<AxeViolation[]> => {
      await page.evaluate(readFileSync(AXE, 'utf8'));
      const options = {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      };
      const result = await page.evaluate<{ violations: AxeViolation[] }>(
        `axe.run(document, ${JSON.stringify(options)})`,
      );
      const serious = result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(({ id, impact, nodes }) => ({
          id,
          impact,
          nodes: nodes.map(({ target, html }) => ({ target, html })),
        }));
      writeFileSync(join(REPORTS, `axe-outbox-${name}.json`), JSON.stringify(serious, null, 2));
      return serious;
    };

    /** Waits until the header's pending count says exactly this (it is hidden at zero). */
    const pendingSays = (page: Page, words: string): Promise<void> =>
      page
        .locator('#pending')
        .filter({ hasText: new RegExp(`^${words}$`) })
        .waitFor({ timeout: 60_000 });

    const shoot = (page: Page, name: string): Promise<Buffer> =>
      page.screenshot({ path: join(REPORTS, `outbox-${name}.png`) });

    const until = async (
      condition: () => Promise<boolean>,
      what: string,
      timeoutMs = 60_000,
    ): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };

    it('airplane mode: 5 answers with a camera photo each, a reload offline, back online: 5 records, 5 photos, none twice', async () => {
      const { context, page } = await open('phone', 'en-US');
      try {
        await page.goto(`${platform.bot.url}/?locale=en-US`);
        await signIn(page);
        await page.getByText(`Hello ${INSPECTOR.username}!`).first().waitFor({ timeout: 30_000 });
        // The service worker controls the page (it keeps the shell for the offline reload).
        await until(
          () => page.evaluate<boolean>('!!navigator.serviceWorker.controller'),
          'the service worker to control the page',
        );
        await sendText(page, 'check PUMP-001');
        await itemCard(page, 'Leaks').waitFor({ timeout: 30_000 });
        await sendText(page, 'check CMP-002');
        await itemCard(page, 'Discharge temperature').waitFor({ timeout: 30_000 });

        await context.setOffline(true);
        await page.getByText('Offline. Answers and photos stay on this phone').waitFor();
        /** An answer, then its photo, each waited for on the phone's outbox (the count goes up by one). */
        let queued = 0;
        const answer = async (item: string, status: string, photo: string): Promise<void> => {
          await itemCard(page, item).getByRole('button', { name: status, exact: true }).click();
          await pendingSays(page, `${(queued += 1)} to send`);
          await attachPhoto(page, photo, cameraPhoto);
          await pendingSays(page, `${(queued += 1)} to send`);
        };
        await answer('Outlet pressure', 'ok', 'outlet.jpg');
        await answer('Bearing temperature', 'warn', 'bearing.jpg');
        await answer('Leaks', 'fail', 'leaks.jpg');
        await pendingSays(page, '6 to send');
        await page.getByText('Waiting to send').first().waitFor();
        expect(
          await page.evaluate<number>(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          ),
        ).toBeLessThanOrEqual(0);
        await shoot(page, 'phone-en-offline-pending');
        expect(await axeViolations(page, 'offline-pending')).toEqual([]);

        // A reload in the dead zone: the service worker's shell, the transcript and the queue from the device.
        await page.reload();
        await itemCard(page, 'Oil level').waitFor({ timeout: 30_000 });
        await pendingSays(page, '6 to send');
        await page.getByText('Offline. Answers and photos stay on this phone').waitFor();
        await shoot(page, 'phone-en-offline-reloaded');
        await answer('Oil level', 'ok', 'oil.jpg');
        await answer('Discharge temperature', 'ok', 'discharge.jpg');
        await pendingSays(page, '10 to send');

        // Back online: sent in order, once each.
        await context.setOffline(false);
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 90_000 });
        const pump = await platform.client.findDeviceByCode('PUMP-001');
        const compressor = await platform.client.findDeviceByCode('CMP-002');
        let pumpRecords = await platform.client.lastRecords(pump?.id ?? 0, 10);
        let compressorRecords = await platform.client.lastRecords(compressor?.id ?? 0, 10);
        await until(async () => {
          pumpRecords = await platform.client.lastRecords(pump?.id ?? 0, 10);
          compressorRecords = await platform.client.lastRecords(compressor?.id ?? 0, 10);
          return [...pumpRecords, ...compressorRecords].filter((record) => record.photo).length >= 5;
        }, 'five photos');
        expect(pumpRecords).toHaveLength(3);
        expect(compressorRecords).toHaveLength(2);
        const records = [...pumpRecords, ...compressorRecords];
        expect(new Set(records.map((record) => record.item)).size).toBe(5);
        expect(records.map((record) => record.status).sort()).toEqual(['fail', 'ok', 'ok', 'ok', 'warn']);
        const photos = records.map((record) => record.photo);
        expect(new Set(photos).size).toBe(5);
        // Each photo: brought down to 2048 px on its long side, turned upright by its EXIF orientation, no EXIF left.
        for (const photo of photos) {
          const served = Buffer.from(await (await fetch(photo ?? '')).arrayBuffer());
          expect(jpegInfo(served)).toEqual({ width: 1536, height: 2048, exif: false });
        }
        await page.getByText('Waiting to send').first().waitFor({ state: 'detached', timeout: 30_000 });
        await shoot(page, 'phone-en-synced');
        expect(browserErrors.filter((error) => !/ERR_INTERNET_DISCONNECTED|net::ERR/.test(error))).toEqual(
          [],
        );
      } finally {
        await shoot(page, 'phone-en-last').catch(() => undefined);
        await context.close();
      }
    }, 300_000);

    it('desktop zh-CN: a reload rejoins the conversation with its transcript; sign-out then sign-in renders a working chat; a file that cannot be made small enough says why', async () => {
      const { context, page } = await open('desktop', 'zh-CN');
      try {
        await page.goto(`${platform.bot.url}/?locale=zh-CN`);
        await signIn(page);
        await page.getByText(`${INSPECTOR.username}，您好！`).first().waitFor({ timeout: 30_000 });
        await sendText(page, 'check PUMP-001');
        await itemCard(page, 'Outlet pressure').waitFor({ timeout: 30_000 });
        const before = await page
          .locator('.webchat__basic-transcript [role="listitem"], .webchat__basic-transcript__activity')
          .count();

        await page.reload();
        await itemCard(page, 'Outlet pressure').waitFor({ timeout: 30_000 });
        await page.getByText(`${INSPECTOR.username}，您好！`).first().waitFor();
        expect(
          await page
            .locator('.webchat__basic-transcript [role="listitem"], .webchat__basic-transcript__activity')
            .count(),
        ).toBeGreaterThanOrEqual(before);

        // Not a picture the page can decode, and over the limit: the reason, and Remove instead of a useless Retry.
        const noise = Buffer.alloc(5 * 1024 * 1024, 0x5a);
        await attachPhoto(page, 'broken.jpg', noise);
        await page.getByText('照片过大：5 MB，上限 4 MB。未发送。').first().waitFor({ timeout: 30_000 });
        await expect(page.getByRole('button', { name: '移除' }).first().isVisible()).resolves.toBe(true);
        await shoot(page, 'desktop-zh-too-large');
        expect(await axeViolations(page, 'too-large')).toEqual([]);
        await page.getByRole('button', { name: '移除' }).first().click();
        await page.locator('#pending').waitFor({ state: 'hidden' });

        await page.getByRole('button', { name: '退出登录' }).click();
        await page.getByText('您已退出登录。').waitFor();
        expect(await page.locator('.webchat__basic-transcript').count()).toBe(0);
        await signIn(page);
        await page.getByText(`${INSPECTOR.username}，您好！`).first().waitFor({ timeout: 30_000 });
        await expect(
          page.locator('.webchat__send-box').getByRole('textbox').first().isVisible(),
        ).resolves.toBe(true);
        await sendText(page, 'check FE-010');
        await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });
        await shoot(page, 'desktop-zh-signed-in-again');
        expect(browserErrors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 240_000);

    it('desktop en: the socket killed and the relay unreachable mid-check loses nothing: the answers wait, then go once each', async () => {
      const { context, page } = await open('desktop', 'en-US');
      // The relay as the page sees it: while down, its WebSocket is closed and its HTTP refused (the relay stopped).
      let down = false;
      const sockets: Array<{ close(options?: { code?: number; reason?: string }): Promise<void> }> = [];
      await page.routeWebSocket(/\/stream/, (socket) => {
        if (down) {
          void socket.close({ code: 1011, reason: 'relay stopped' });
          return;
        }
        socket.connectToServer();
        sockets.push(socket);
      });
      await page.route(new RegExp(`^${platform.relay.url}/`), (route) =>
        down ? route.abort('connectionrefused') : route.continue(),
      );
      try {
        await page.goto(`${platform.bot.url}/?locale=en-US`);
        await signIn(page);
        await page.getByText(`Hello ${INSPECTOR.username}!`).first().waitFor({ timeout: 30_000 });
        await sendText(page, 'check FE-010');
        await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });
        const extinguisher = await platform.client.findDeviceByCode('FE-010');
        const before = await platform.client.lastRecords(extinguisher?.id ?? 0, 20);

        down = true;
        for (const socket of sockets.splice(0)) await socket.close({ code: 1006, reason: 'killed' });
        await itemCard(page, 'Pressure gauge').getByRole('button', { name: 'ok', exact: true }).click();
        await pendingSays(page, '1 to send');
        // The page says so, in words, as soon as a send finds the chat service unreachable.
        await page.getByText('Connection lost. Reconnecting…').waitFor({ timeout: 30_000 });
        await itemCard(page, 'Seal intact').getByRole('button', { name: 'fail', exact: true }).click();
        await pendingSays(page, '2 to send');
        await shoot(page, 'desktop-en-relay-down');

        down = false;
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 90_000 });
        await page.getByText('Connection lost. Reconnecting…').waitFor({ state: 'hidden', timeout: 30_000 });
        let after = before;
        await until(async () => {
          after = await platform.client.lastRecords(extinguisher?.id ?? 0, 20);
          return after.length >= before.length + 2;
        }, 'the two answers recorded');
        const made = after.filter((record) => !before.some((old) => old.id === record.id));
        expect(made.map((record) => record.status).sort()).toEqual(['fail', 'ok']);
        expect(new Set(made.map((record) => record.item)).size).toBe(2);
        await page
          .locator('.ac-adaptiveCard')
          .filter({ hasText: 'Seal intact' })
          .filter({ hasText: new RegExp(`fail · \\d\\d:\\d\\d · ${INSPECTOR.username}`) })
          .first()
          .waitFor({ timeout: 30_000 });
        await shoot(page, 'desktop-en-relay-back');
        expect(await axeViolations(page, 'relay-back')).toEqual([]);
        expect(
          browserErrors.filter((error) => !/net::ERR|WebSocket|Failed to load resource/.test(error)),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    }, 240_000);
  },
);
