import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DESKTOP,
  describeInChromium,
  horizontalOverflow,
  launchChromium,
  openPage,
  PHONE,
  seriousAxeViolations,
} from '@fieldops/testing/browser';
import { chatWelcome, createAccount, submitChatSignIn, type TestAccount } from '@fieldops/testing/chat-page';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { type CheckRecord } from '../src';
import {
  RELAY_TOKEN_SIGNING_KEY,
  type RunningInspectionPlatform,
  startInspectionPlatform,
} from './support/platform';

const REPORTS = join(__dirname, '..', '.reports');
const VIEWPORTS = { phone: PHONE, desktop: DESKTOP } as const;
type Viewport = keyof typeof VIEWPORTS;
type Locale = 'en-US' | 'zh-CN';
/** The key walks run at both sizes in both languages. */
const EVERY_SIZE_AND_LANGUAGE: ReadonlyArray<readonly [Viewport, Locale]> = [
  ['phone', 'en-US'],
  ['desktop', 'en-US'],
  ['phone', 'zh-CN'],
  ['desktop', 'zh-CN'],
];
/** The page's and the bot's words the tests look for, in each language. */
const WORDS = {
  'en-US': {
    offline: 'Offline. Answers and photos stay on this phone',
    toSend: (count: number) => `${count} to send`,
    waiting: 'Waiting to send',
    reconnecting: 'Connection lost. Reconnecting…',
    tooLarge: 'Photo too large: 5 MB, limit 4 MB. Not sent.',
    remove: 'Remove',
    retry: 'Retry',
    status: { ok: 'ok', warn: 'warn', fail: 'fail' },
    help: 'Here is what I understand:',
    deviceIntro: /\(FE-010\): record a result for each item/,
    sessionEnded: 'Your session has ended. Please sign in again.',
  },
  'zh-CN': {
    offline: '离线。答复和照片保存在本机',
    toSend: (count: number) => `待发送 ${count} 条`,
    waiting: '等待发送',
    reconnecting: '连接已中断，正在重新连接…',
    tooLarge: '照片过大：5 MB，上限 4 MB。未发送。',
    remove: '移除',
    retry: '重试',
    status: { ok: '正常', warn: '警告', fail: '故障' },
    help: '我能理解以下指令：',
    deviceIntro: /（FE-010）：请用按钮为每个检查项记录结果。/,
    sessionEnded: '会话已结束，请重新登录。',
  },
} as const;
type Status = keyof (typeof WORDS)['en-US']['status'];
const short = (locale: Locale): string => (locale === 'zh-CN' ? 'zh' : 'en');
/** What a phone camera writes: 4000×3000, and at least 6 MiB (most 12 MP+ photos are 3–8 MB). */
const CAMERA = { width: 4000, height: 3000, minBytes: 6 * 1024 * 1024 };
/** One colour per camera photo: each photo is told apart by its colour after the page has re-encoded it. */
const PHOTO_COLOURS: ReadonlyArray<readonly [number, number, number]> = [
  [200, 60, 60],
  [60, 170, 70],
  [60, 90, 200],
  [210, 190, 60],
  [150, 70, 180],
];

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

/**
 * A Direct Line token as the relay signed it over an hour ago (its claims, its configured key), so expired: what a
 * page holds after a long stay offline.
 */
function expiredToken(token: string): string {
  const [header = '', payload = ''] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, number>;
  const hours = 2 * 3600;
  const shifted = Object.fromEntries(
    Object.entries(claims).map(([name, value]) => [
      name,
      ['iat', 'nbf', 'exp'].includes(name) ? value - hours : value,
    ]),
  );
  const body = Buffer.from(JSON.stringify(shifted)).toString('base64url');
  const signature = createHmac('sha256', RELAY_TOKEN_SIGNING_KEY)
    .update(`${header}.${body}`)
    .digest('base64url');
  return `${header}.${body}.${signature}`;
}

describeInChromium('the chat page offline and back (outbox, service worker, photos)', () => {
  let platform: RunningInspectionPlatform;
  let browser: Browser;
  /** A blank page of the browser, for drawing the test's photos and for looking at the served ones. */
  let probe: Page;
  /** Camera-like 4000×3000 JPEGs of ≥ 6 MiB with a phone's EXIF segment, one colour each (PHOTO_COLOURS). */
  const cameraPhotos: Buffer[] = [];
  /**
   * The photos as files on disk, as a phone's picker hands them over: the browser reads a chosen file itself (a
   * file given as bytes would cross the DevTools protocol as base64 and be rebuilt by a script in the page).
   */
  const photoFiles: string[] = [];
  /** 5 MB that no browser can decode as a picture: the file the page cannot make small enough. */
  let undecodableFile = '';
  let photoDirectory = '';
  const browserErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true });
    platform = await startInspectionPlatform();
    browser = await launchChromium();
    probe = await browser.newPage();
    for (const [index, [red, green, blue]] of PHOTO_COLOURS.entries()) {
      // Drawn and encoded by the browser: a colour with fine noise in brightness and hue, as a sensor's picture.
      // The noise is drawn once on a 509 px tile (a prime size, so no 8×8 JPEG block repeats along a row) and
      // laid over the whole picture: the same ≥ 6 MiB of JPEG as noise drawn pixel by pixel, at a fraction of
      // the script's time.
      const base64 = await probe.evaluate<string>(`(async () => {
          const canvas = new OffscreenCanvas(${CAMERA.width}, ${CAMERA.height});
          const context = canvas.getContext('2d');
          const tile = new OffscreenCanvas(509, 509);
          const tileContext = tile.getContext('2d');
          const noise = tileContext.createImageData(509, 509);
          let seed = ${index + 7};
          for (let i = 0; i < noise.data.length; i += 4) {
            seed = (seed * 1103515245 + 12345) & 0x7fffffff;
            const n = (seed % 81) - 40;
            const hue = ((seed >> 8) % 21) - 10;
            noise.data[i] = ${red} + n + hue; noise.data[i + 1] = ${green} + n; noise.data[i + 2] = ${blue} + n - hue;
            noise.data[i + 3] = 255;
          }
          tileContext.putImageData(noise, 0, 0);
          context.fillStyle = context.createPattern(tile, 'repeat');
          context.fillRect(0, 0, ${CAMERA.width}, ${CAMERA.height});
          const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.93 });
          const bytes = new Uint8Array(await blob.arrayBuffer());
          let text = '';
          for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
          return btoa(text);
        })()`);
      const plain = Buffer.from(base64, 'base64');
      cameraPhotos.push(Buffer.concat([plain.subarray(0, 2), exifSegment(), plain.subarray(2)]));
    }
    photoDirectory = mkdtempSync(join(tmpdir(), 'chat-outbox-photos-'));
    for (const [index, photo] of cameraPhotos.entries()) {
      expect(photo.length).toBeGreaterThanOrEqual(CAMERA.minBytes);
      expect(jpegInfo(photo)).toEqual({ width: CAMERA.width, height: CAMERA.height, exif: true });
      photoFiles.push(join(photoDirectory, `camera-${index + 1}.jpg`));
      writeFileSync(photoFiles[index] ?? '', photo);
    }
    undecodableFile = join(photoDirectory, 'broken.jpg');
    writeFileSync(undecodableFile, Buffer.alloc(5 * 1024 * 1024, 0x5a));
  }, 180_000);

  // Each walk starts with nothing answered: a check shows what its period already has (from any conversation).
  beforeEach(() => platform.clearRecords());

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    if (photoDirectory) rmSync(photoDirectory, { recursive: true, force: true });
  });

  /**
   * Each page's inspector: an account of its own (the chat page opens the account's home conversation, so two
   * browsers of one account would share a transcript), and the page's language.
   */
  const inspectors = new WeakMap<Page, { account: TestAccount; locale: Locale }>();
  const inspectorOf = (page: Page): TestAccount => {
    const inspector = inspectors.get(page);
    if (!inspector) throw new Error('a page made by open()');
    return inspector.account;
  };

  const open = async (
    viewport: Viewport,
    locale: Locale,
  ): Promise<{ context: BrowserContext; page: Page }> => {
    browserErrors.splice(0);
    const account = await createAccount(platform.accounts);
    const { context, page } = await openPage(browser, {
      viewport: VIEWPORTS[viewport],
      locale,
      errors: browserErrors,
    });
    inspectors.set(page, { account, locale });
    return { context, page };
  };

  const signIn = (page: Page): Promise<void> => submitChatSignIn(page, inspectorOf(page));

  /** The bot's greeting to the page's inspector, in the page's language. */
  const hello = (page: Page): string =>
    chatWelcome(inspectorOf(page).username, inspectors.get(page)?.locale ?? '');

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

  /** The card of an item once the bot has updated it: "fail · 10:02 · inspector-3" (by default the page's own). */
  const answeredCard = (page: Page, item: string, statusWord: string, by = inspectorOf(page).username) =>
    page
      .locator('.ac-adaptiveCard')
      .filter({ hasText: item })
      .filter({ hasText: new RegExp(`${statusWord} · \\d\\d:\\d\\d · ${by}`) })
      .first();

  /** A photo chosen with the paperclip (a file of photoFiles, or undecodableFile). */
  const attachPhoto = (page: Page, file: string | undefined) =>
    page
      .locator('input[type="file"]')
      .first()
      .setInputFiles(file ?? '');

  const axeViolations = async (page: Page, name: string) => {
    const serious = await seriousAxeViolations(page);
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

  /** The conversation the page keeps for a reload (its id and Direct Line token). */
  const remembered = (page: Page) =>
    page.evaluate<{ conversationId: string; token: string } | undefined>(
      `JSON.parse(localStorage.getItem('fieldops.chat.conversation') ?? 'null') ?? undefined`,
    );

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

  /** The records of these devices made since `before` (ids not in it). */
  const recordsSince = async (devices: number[], before: ReadonlySet<number>): Promise<CheckRecord[]> =>
    (await Promise.all(devices.map((device) => platform.client.lastRecords(device, 50))))
      .flat()
      .filter((record) => !before.has(record.id));

  const recordIds = async (devices: number[]): Promise<Set<number>> =>
    new Set((await recordsSince(devices, new Set())).map((record) => record.id));

  /**
   * A served photo, looked at: its pixel size and EXIF (from the bytes) and which of PHOTO_COLOURS it shows (the
   * browser decodes it and averages a 16×16 sampling).
   */
  const servedPhoto = async (
    url: string | null,
  ): Promise<{ bytes: Buffer; width: number; height: number; exif: boolean; colour: number }> => {
    const bytes = Buffer.from(await (await fetch(url ?? '')).arrayBuffer());
    const mean = await probe.evaluate<[number, number, number]>(`(async () => {
        const bytes = Uint8Array.from(atob('${bytes.toString('base64')}'), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
        const canvas = new OffscreenCanvas(16, 16);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0, 16, 16);
        const { data } = context.getImageData(0, 0, 16, 16);
        const sum = [0, 0, 0];
        for (let i = 0; i < data.length; i += 4) { sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2]; }
        return sum.map((total) => total / 256);
      })()`);
    const distances = PHOTO_COLOURS.map((colour) =>
      Math.hypot(...colour.map((channel, index) => channel - (mean[index] ?? 0))),
    );
    const nearest = distances.indexOf(Math.min(...distances));
    return { bytes, ...jpegInfo(bytes), colour: (distances[nearest] ?? Infinity) < 40 ? nearest : -1 };
  };

  for (const [viewport, locale] of EVERY_SIZE_AND_LANGUAGE) {
    const words = WORDS[locale];
    const tag = `${viewport}-${short(locale)}`;
    it(`${tag} airplane mode: 5 answers with their own 6 MB camera photo each (a double tap among them), a reload offline, back online: exactly 5 records and 5 photos, each on its item; a photo that cannot be made small enough says why`, async () => {
      const { context, page } = await open(viewport, locale);
      try {
        const pump = await platform.client.findDeviceByCode('PUMP-001');
        const compressor = await platform.client.findDeviceByCode('CMP-002');
        const devices = [pump?.id ?? 0, compressor?.id ?? 0];
        const itemIds = new Map(
          [...(pump?.check_items ?? []), ...(compressor?.check_items ?? [])].map((item) => [
            item.name,
            item.id,
          ]),
        );
        const before = await recordIds(devices);

        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await signIn(page);
        await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
        // The service worker controls the page (it keeps the shell for the offline reload).
        await until(
          () => page.evaluate<boolean>('!!navigator.serviceWorker.controller'),
          'the service worker to control the page',
        );
        // The header names the account on one line (a phone shows the name alone).
        await expect(page.locator('#who').textContent()).resolves.toBe(
          locale === 'zh-CN'
            ? `已登录：${inspectorOf(page).username}`
            : `Signed in as ${inspectorOf(page).username}`,
        );
        await expect(
          page.evaluate<number>(
            `(() => { const who = document.getElementById('who'); return who.getBoundingClientRect().height / parseFloat(getComputedStyle(who).lineHeight); })()`,
          ),
        ).resolves.toBeLessThan(1.5);
        await sendText(page, 'check PUMP-001');
        await itemCard(page, 'Leaks').waitFor({ timeout: 30_000 });
        await sendText(page, 'check CMP-002');
        await itemCard(page, 'Discharge temperature').waitFor({ timeout: 30_000 });

        const chatBefore = await page.locator('#chat').boundingBox();
        await context.setOffline(true);
        await page.getByText(words.offline).waitFor();
        // The offline line lies over the transcript: the chat keeps its size and place, so Web Chat has no reason to
        // scroll the cards under a finger that is tapping one.
        expect(await page.locator('#chat').boundingBox()).toEqual(chatBefore);
        /** Which photo (PHOTO_COLOURS) each item gets. */
        const photoOf = new Map<string, number>();
        /** An answer, then its own photo, each waited for on the phone's outbox (the count goes up by one). */
        let queued = 0;
        const answer = async (item: string, status: Status, tap: 'click' | 'dblclick' = 'click') => {
          const answers = await page.locator('.card-answer').count();
          const button = itemCard(page, item).getByRole('button', {
            name: words.status[status],
            exact: true,
          });
          await (tap === 'dblclick' ? button.dblclick() : button.click());
          await pendingSays(page, words.toSend((queued += 1)));
          // One answer on the page for a double tap: the second tap is dropped, not queued.
          await expect(page.locator('.card-answer').count()).resolves.toBe(answers + 1);
          photoOf.set(item, photoOf.size);
          await attachPhoto(page, photoFiles[photoOf.size - 1]);
          await pendingSays(page, words.toSend((queued += 1)));
        };
        await answer('Outlet pressure', 'ok', 'dblclick');
        await answer('Bearing temperature', 'warn');
        await answer('Leaks', 'fail');
        await pendingSays(page, words.toSend(6));
        await page.getByText(words.waiting).first().waitFor();
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, `${tag}-offline-pending`);
        expect(await axeViolations(page, `${tag}-offline-pending`)).toEqual([]);

        // A reload in the dead zone: the service worker's shell, the transcript and the queue from the device.
        await page.reload();
        await itemCard(page, 'Oil level').waitFor({ timeout: 30_000 });
        await pendingSays(page, words.toSend(6));
        await page.getByText(words.offline).waitFor();
        await shoot(page, `${tag}-offline-reloaded`);
        // The card answered before the reload still takes no second answer.
        await itemCard(page, 'Leaks').getByRole('button', { name: words.status.fail, exact: true }).click();
        await answer('Oil level', 'ok');
        await answer('Discharge temperature', 'ok');
        await pendingSays(page, words.toSend(10));

        // Back online: sent in order, once each.
        await context.setOffline(false);
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 120_000 });
        let made: CheckRecord[] = [];
        await until(async () => {
          made = await recordsSince(devices, before);
          return made.filter((record) => record.photo).length >= 5;
        }, 'five photos');
        expect(made).toHaveLength(5);
        expect(made.filter((record) => record.device === pump?.id)).toHaveLength(3);
        const statusOf = Object.fromEntries(
          made.map((record) => [
            [...itemIds].find(([, id]) => id === record.item)?.[0] ?? '?',
            record.status,
          ]),
        );
        expect(statusOf).toEqual({
          'Outlet pressure': 'ok',
          'Bearing temperature': 'warn',
          Leaks: 'fail',
          'Oil level': 'ok',
          'Discharge temperature': 'ok',
        });
        // Each photo on its own item (told apart by its colour), none twice; each brought down to 2048 px on its
        // long side, turned upright by its EXIF orientation, no EXIF left, under the relay's 4 MiB.
        const hashes = new Set<string>();
        for (const [item, photo] of photoOf) {
          const record = made.find((each) => each.item === itemIds.get(item));
          const served = await servedPhoto(record?.photo ?? null);
          expect({ item, colour: served.colour }).toEqual({ item, colour: photo });
          expect({ width: served.width, height: served.height, exif: served.exif }).toEqual({
            width: 1536,
            height: 2048,
            exif: false,
          });
          expect(served.bytes.length).toBeLessThan(4 * 1024 * 1024);
          hashes.add(createHash('sha256').update(served.bytes).digest('hex'));
        }
        expect(hashes.size).toBe(5);
        await page.getByText(words.waiting).first().waitFor({ state: 'detached', timeout: 30_000 });
        await answeredCard(page, 'Discharge temperature', words.status.ok).waitFor({ timeout: 30_000 });
        await shoot(page, `${tag}-synced`);

        // Not a picture the page can decode, and over the limit: the reason in words, and Remove instead of a
        // Retry that could never work.
        await attachPhoto(page, undecodableFile);
        const refusal = page.locator('.outbox-status.failed').filter({ hasText: words.tooLarge }).first();
        await refusal.waitFor({ timeout: 30_000 });
        await expect(refusal.getByRole('button', { name: words.remove }).isVisible()).resolves.toBe(true);
        expect(await refusal.getByRole('button', { name: words.retry }).count()).toBe(0);
        await refusal.scrollIntoViewIfNeeded();
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, `${tag}-too-large`);
        expect(await axeViolations(page, `${tag}-too-large`)).toEqual([]);
        await refusal.getByRole('button', { name: words.remove }).click();
        await refusal.waitFor({ state: 'detached' });
        expect(await recordsSince(devices, before)).toHaveLength(5);
        expect(browserErrors.filter((error) => !/ERR_INTERNET_DISCONNECTED|net::ERR/.test(error))).toEqual(
          [],
        );
      } finally {
        await shoot(page, `${tag}-last`).catch(() => undefined);
        await context.close();
      }
    }, 420_000);
  }

  it('phone en: a session that ended while offline asks to sign in again, then sends what waited, once', async () => {
    const { context, page } = await open('phone', 'en-US');
    try {
      const extinguisher = await platform.client.findDeviceByCode('FE-010');
      const devices = [extinguisher?.id ?? 0];
      const before = await recordIds(devices);
      await page.goto(`${platform.bot.url}/?locale=en-US`);
      await signIn(page);
      await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
      await until(
        () => page.evaluate<boolean>('!!navigator.serviceWorker.controller'),
        'the service worker to control the page',
      );
      await sendText(page, 'check FE-010');
      await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });

      await context.setOffline(true);
      await itemCard(page, 'Seal intact').getByRole('button', { name: 'warn', exact: true }).click();
      await pendingSays(page, WORDS['en-US'].toSend(1));
      // The session ends while the phone is offline (its cookie gone), and the page is opened again there.
      await context.clearCookies();
      await page.reload();
      await pendingSays(page, WORDS['en-US'].toSend(1));

      await context.setOffline(false);
      await page.getByText('Your session has ended. Please sign in again.').waitFor({ timeout: 60_000 });
      await expect(page.locator('#pending').textContent()).resolves.toBe(WORDS['en-US'].toSend(1));
      await shoot(page, 'phone-en-session-ended');
      expect(await recordsSince(devices, before)).toEqual([]);
      await signIn(page);
      await page.locator('#pending').waitFor({ state: 'hidden', timeout: 90_000 });
      let made: CheckRecord[] = [];
      await until(async () => {
        made = await recordsSince(devices, before);
        return made.length >= 1;
      }, 'the answer sent after signing in again');
      expect(made.map((record) => record.status)).toEqual(['warn']);
      expect(await axeViolations(page, 'phone-en-session-ended')).toEqual([]);
      expect(
        browserErrors.filter(
          (error) =>
            !/net::ERR|Failed to load resource: the server responded with a status of 401/.test(error),
        ),
      ).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  // Both sizes and both languages between the two runs: the walk's words and layout differ by language, and the
  // relay's stop and start is the same at any size.
  for (const [viewport, locale] of [
    ['phone', 'zh-CN'],
    ['desktop', 'en-US'],
  ] as const) {
    const words = WORDS[locale];
    const tag = `${viewport}-${short(locale)}`;
    it(`${tag}: relay-gateway stopped and started again mid-check (a 6 MB photo before, an answer and a photo while it is down): nothing lost, nothing twice`, async () => {
      const { context, page } = await open(viewport, locale);
      let startRelay: (() => Promise<unknown>) | undefined;
      try {
        const extinguisher = await platform.client.findDeviceByCode('FE-010');
        const devices = [extinguisher?.id ?? 0];
        const itemId = (name: string) => extinguisher?.check_items.find((item) => item.name === name)?.id;
        const before = await recordIds(devices);
        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await signIn(page);
        await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
        await sendText(page, 'check FE-010');
        await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });

        // Online: an answer and a 6 MB camera photo straight from the paperclip, brought down and attached to it.
        await itemCard(page, 'Pressure gauge')
          .getByRole('button', { name: words.status.ok, exact: true })
          .click();
        await answeredCard(page, 'Pressure gauge', words.status.ok).waitFor({ timeout: 30_000 });
        await attachPhoto(page, photoFiles[0]);
        let made: CheckRecord[] = [];
        await until(async () => {
          made = await recordsSince(devices, before);
          return made.some((record) => record.photo);
        }, 'the photo of Pressure gauge');
        expect(made.map((record) => [record.item, record.status])).toEqual([
          [itemId('Pressure gauge'), 'ok'],
        ]);
        const gauge = await servedPhoto(made[0]?.photo ?? null);
        expect([gauge.width, gauge.height, gauge.exif, gauge.colour]).toEqual([1536, 2048, false, 0]);

        // The relay stops (its streams closed, its port refusing): an answer and its photo wait on the phone.
        startRelay = await platform.stopRelay();
        await itemCard(page, 'Seal intact')
          .getByRole('button', { name: words.status.fail, exact: true })
          .click();
        await pendingSays(page, words.toSend(1));
        await page.getByText(words.reconnecting).waitFor({ timeout: 30_000 });
        await attachPhoto(page, photoFiles[1]);
        await pendingSays(page, words.toSend(2));
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, `${tag}-relay-down`);

        // The relay starts again on its port: what waited is sent once, in order.
        const starting = startRelay;
        startRelay = undefined;
        await starting();
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 120_000 });
        await page.getByText(words.reconnecting).waitFor({ state: 'hidden', timeout: 60_000 });
        await until(async () => {
          made = await recordsSince(devices, before);
          return made.filter((record) => record.photo).length >= 2;
        }, 'the answer and photo sent after the restart');
        expect(made.map((record) => [record.item, record.status]).sort()).toEqual(
          [
            [itemId('Pressure gauge'), 'ok'],
            [itemId('Seal intact'), 'fail'],
          ].sort(),
        );
        const seal = await servedPhoto(
          made.find((record) => record.item === itemId('Seal intact'))?.photo ?? null,
        );
        expect(seal.colour).toBe(1);
        await answeredCard(page, 'Seal intact', words.status.fail).waitFor({ timeout: 30_000 });
        await shoot(page, `${tag}-relay-back`);
        expect(await axeViolations(page, `${tag}-relay-back`)).toEqual([]);
        expect(await recordsSince(devices, before)).toHaveLength(2);
        expect(
          browserErrors.filter((error) => !/net::ERR|WebSocket|Failed to load resource/.test(error)),
        ).toEqual([]);
      } finally {
        await startRelay?.();
        await context.close();
      }
    }, 300_000);
  }

  // Both sizes and both languages between the two runs (as the relay restart): a long stay in a dead zone, during
  // which the bot is redeployed and, later, the page's Direct Line token expires.
  for (const [viewport, locale] of [
    ['desktop', 'zh-CN'],
    ['phone', 'en-US'],
  ] as const) {
    const words = WORDS[locale];
    const tag = `${viewport}-${short(locale)}`;
    it(`${tag}: the bot restarted while the phone is offline with an answer and a photo waiting, then the Direct Line token expired while offline: each time, back online, everything waiting is sent exactly once, with no sign-in asked`, async () => {
      const { context, page } = await open(viewport, locale);
      try {
        const extinguisher = await platform.client.findDeviceByCode('FE-010');
        const devices = [extinguisher?.id ?? 0];
        const itemId = (name: string) => extinguisher?.check_items.find((item) => item.name === name)?.id;
        const before = await recordIds(devices);
        await page.goto(`${platform.bot.url}/?locale=${locale}`);
        await signIn(page);
        await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
        await until(
          () => page.evaluate<boolean>('!!navigator.serviceWorker.controller'),
          'the service worker to control the page',
        );
        await sendText(page, 'check FE-010');
        await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });
        const conversation = await remembered(page);

        // Offline: an answer and its photo wait on the phone while the bot process stops and starts again.
        await context.setOffline(true);
        await page.getByText(words.offline).waitFor();
        await itemCard(page, 'Seal intact')
          .getByRole('button', { name: words.status.fail, exact: true })
          .click();
        await pendingSays(page, words.toSend(1));
        await attachPhoto(page, photoFiles[2]);
        await pendingSays(page, words.toSend(2));
        await platform.restartBot();
        await shoot(page, `${tag}-bot-restarted-offline`);

        // Back online: the same conversation (its token renewed by the new bot process from the same session),
        // both sent once, the photo on its item, nothing asked.
        await context.setOffline(false);
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 120_000 });
        let made: CheckRecord[] = [];
        await until(async () => {
          made = await recordsSince(devices, before);
          return made.some((record) => record.photo);
        }, 'the answer and photo sent after the bot restart');
        expect(made.map((record) => [record.item, record.status])).toEqual([[itemId('Seal intact'), 'fail']]);
        expect((await servedPhoto(made[0]?.photo ?? null)).colour).toBe(2);
        expect((await remembered(page))?.conversationId).toBe(conversation?.conversationId);
        await page.getByText(words.offline).waitFor({ state: 'hidden' });
        await expect(page.locator('#sign-in').isHidden()).resolves.toBe(true);
        // The new bot process answers in the conversation.
        await sendText(page, 'help');
        await page.getByText(words.help).last().waitFor({ timeout: 30_000 });
        await shoot(page, `${tag}-bot-restarted-synced`);
        expect(await axeViolations(page, `${tag}-bot-restarted-synced`)).toEqual([]);

        // Offline again, long enough for the page's Direct Line token to expire: an answer and its photo wait;
        // the tab is reopened there (a phone discards it), with the token as the relay signed it over an hour ago.
        await context.setOffline(true);
        await page.getByText(words.offline).waitFor();
        await itemCard(page, 'Pressure gauge')
          .getByRole('button', { name: words.status.warn, exact: true })
          .click();
        await pendingSays(page, words.toSend(1));
        await attachPhoto(page, photoFiles[3]);
        await pendingSays(page, words.toSend(2));
        const kept = await remembered(page);
        await page.evaluate(
          `localStorage.setItem('fieldops.chat.conversation', ${JSON.stringify(
            JSON.stringify({ ...kept, token: expiredToken(kept?.token ?? '') }),
          )})`,
        );
        await page.reload();
        await pendingSays(page, words.toSend(2));
        await shoot(page, `${tag}-token-expired-offline`);

        // Back online: the relay refuses to renew an expired token (as Direct Line's tokens/refresh does), so the
        // page's route gives a new token on the same session, for the person's home conversation again, and what
        // waited is sent there, once.
        await context.setOffline(false);
        await page.locator('#pending').waitFor({ state: 'hidden', timeout: 120_000 });
        await until(async () => {
          made = await recordsSince(devices, before);
          return made.filter((record) => record.photo).length >= 2;
        }, 'the answer and photo sent after the token expired');
        expect(made.map((record) => [record.item, record.status]).sort()).toEqual(
          [
            [itemId('Seal intact'), 'fail'],
            [itemId('Pressure gauge'), 'warn'],
          ].sort(),
        );
        const gauge = made.find((record) => record.item === itemId('Pressure gauge'));
        expect((await servedPhoto(gauge?.photo ?? null)).colour).toBe(3);
        await expect(page.locator('#sign-in').isHidden()).resolves.toBe(true);
        expect(await page.getByText(words.sessionEnded).count()).toBe(0);
        expect((await remembered(page))?.conversationId).toBe(conversation?.conversationId);
        // The chat works on: a check opened with the new token.
        await sendText(page, 'check FE-010');
        await page.getByText(words.deviceIntro).last().waitFor({ timeout: 30_000 });
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, `${tag}-token-renewed-synced`);
        expect(await axeViolations(page, `${tag}-token-renewed-synced`)).toEqual([]);
        expect(await recordsSince(devices, before)).toHaveLength(2);
        expect(browserErrors.filter((error) => !/net::ERR|Failed to load resource/.test(error))).toEqual([]);
      } finally {
        await shoot(page, `${tag}-restart-last`).catch(() => undefined);
        await context.close();
      }
    }, 300_000);
  }

  it('phone en: the bot restarted while the phone stays online: the next card answered with no sign-in asked, one record per tap, and check shows both answered', async () => {
    const words = WORDS['en-US'];
    const { context, page } = await open('phone', 'en-US');
    try {
      const extinguisher = await platform.client.findDeviceByCode('FE-010');
      const devices = [extinguisher?.id ?? 0];
      const itemId = (name: string) => extinguisher?.check_items.find((item) => item.name === name)?.id;
      const before = await recordIds(devices);
      await page.goto(`${platform.bot.url}/?locale=en-US`);
      await signIn(page);
      await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
      await sendText(page, 'check FE-010');
      await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });
      const conversation = await remembered(page);

      // One item answered; the bot turns its card into the answer.
      await itemCard(page, 'Pressure gauge')
        .getByRole('button', { name: words.status.ok, exact: true })
        .click();
      await answeredCard(page, 'Pressure gauge', words.status.ok).waitFor({ timeout: 30_000 });

      // The bot process stops and starts again while the page is online (its conversation state is gone).
      await platform.restartBot();

      // The next card of the same check message, answered by the new process: recorded once, nothing asked.
      await itemCard(page, 'Seal intact')
        .getByRole('button', { name: words.status.fail, exact: true })
        .click();
      let made: CheckRecord[] = [];
      await until(async () => {
        made = await recordsSince(devices, before);
        return made.length >= 2;
      }, 'the answer after the bot restart');
      await page
        .getByText(/Recorded .fail. for Seal intact/)
        .last()
        .waitFor({ timeout: 30_000 });
      expect(made.map((record) => [record.item, record.status, record.checked_by]).sort()).toEqual(
        [
          [itemId('Pressure gauge'), 'ok', inspectorOf(page).username],
          [itemId('Seal intact'), 'fail', inspectorOf(page).username],
        ].sort(),
      );
      await expect(page.locator('#sign-in').isHidden()).resolves.toBe(true);
      expect(await page.getByText(words.sessionEnded).count()).toBe(0);
      expect((await remembered(page))?.conversationId).toBe(conversation?.conversationId);

      // The check's progress comes from inspection-api: both items answered, no buttons left to tap.
      await sendText(page, 'check FE-010');
      await page
        .getByText(/\(FE-010\): record a result for each item with the buttons\. 2 of 2 items answered\./)
        .last()
        .waitFor({
          timeout: 30_000,
        });
      const lastCheck = page.locator('.webchat__basic-transcript__activity').last();
      await lastCheck
        .locator('.ac-adaptiveCard')
        .filter({ hasText: new RegExp(`fail · \\d\\d:\\d\\d · ${inspectorOf(page).username}`) })
        .waitFor({ timeout: 30_000 });
      expect(await lastCheck.getByRole('button', { name: words.status.ok, exact: true }).count()).toBe(0);
      expect(await recordsSince(devices, before)).toHaveLength(2);
      await shoot(page, 'phone-en-bot-restarted-online');
      expect(browserErrors.filter((error) => !/net::ERR|Failed to load resource/.test(error))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
  it('phone en: the second tap of a double tap lands on another card (the transcript moved under the finger after the first): only the first tap answers', async () => {
    const words = WORDS['en-US'];
    const { context, page } = await open('phone', 'en-US');
    try {
      await page.goto(`${platform.bot.url}/?locale=en-US`);
      await signIn(page);
      await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
      await sendText(page, 'check FE-010');
      await itemCard(page, 'Seal intact').waitFor({ timeout: 30_000 });
      await page.locator('#pending').waitFor({ state: 'hidden', timeout: 30_000 });
      // Offline, so every answer waits in the outbox and the count says how many were taken.
      await context.setOffline(true);
      await page.getByText(words.offline).waitFor();

      // The first tap answers ok on Pressure gauge.
      await itemCard(page, 'Pressure gauge')
        .getByRole('button', { name: words.status.ok, exact: true })
        .click();
      await pendingSays(page, words.toSend(1));
      // The second tap of the same double tap (the browser numbers it 2) on the button now under the finger:
      // another card's warn.
      const other = itemCard(page, 'Seal intact').getByRole('button', {
        name: words.status.warn,
        exact: true,
      });
      await other.scrollIntoViewIfNeeded();
      const box = await other.boundingBox();
      await page.mouse.move((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
      await page.mouse.down({ clickCount: 2 });
      await page.mouse.up({ clickCount: 2 });
      // A tap of its own on that card is an answer: the count goes to 2 with it, never with the repeated tap.
      await itemCard(page, 'Seal intact')
        .getByRole('button', { name: words.status.fail, exact: true })
        .click();
      await pendingSays(page, words.toSend(2));
      await expect(page.locator('.card-answer-text').allTextContents()).resolves.toEqual([
        'Answered: ok',
        'Answered: fail',
      ]);
      await shoot(page, 'phone-en-double-tap-moved');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('phone en: two phones answer one item at the same moment: one record; the other is told "already answered", and records its answer only when it confirms', async () => {
    const words = WORDS['en-US'];
    const phones = [await open('phone', 'en-US'), await open('phone', 'en-US')];
    try {
      const extinguisher = await platform.client.findDeviceByCode('FE-010');
      const devices = [extinguisher?.id ?? 0];
      const before = await recordIds(devices);
      for (const { page } of phones) {
        await page.goto(`${platform.bot.url}/?locale=en-US`);
        await signIn(page);
        await page.getByText(hello(page)).first().waitFor({ timeout: 30_000 });
        await sendText(page, 'check FE-010');
        await itemCard(page, 'Pressure gauge').waitFor({ timeout: 30_000 });
      }

      // Both tap ok on the same item at once.
      await Promise.all(
        phones.map(({ page }) =>
          itemCard(page, 'Pressure gauge')
            .getByRole('button', { name: words.status.ok, exact: true })
            .click(),
        ),
      );
      const recorded = (page: Page) => page.getByText(/Recorded .ok. for Pressure gauge/).last();
      const told = (page: Page) =>
        page.getByText(/Pressure gauge is already answered in this period: ok · /).last();
      let second: Page | undefined;
      await until(async () => {
        for (const [index, { page }] of phones.entries()) {
          const other = phones[1 - index]?.page;
          if (other && (await told(page).isVisible()) && (await recorded(other).isVisible())) second = page;
        }
        return second !== undefined;
      }, 'one phone recorded and the other told "already answered"');
      const made = await recordsSince(devices, before);
      const page = second as Page;
      const first = phones.find((phone) => phone.page !== page)?.page as Page;
      expect(made.map((record) => [record.status, record.checked_by])).toEqual([
        ['ok', inspectorOf(first).username],
      ]);
      // The told phone's card now shows the answer made on the other phone.
      await answeredCard(page, 'Pressure gauge', words.status.ok, inspectorOf(first).username).waitFor({
        timeout: 30_000,
      });
      await shoot(page, 'phone-en-two-phones-told');
      expect(await axeViolations(page, 'phone-en-two-phones-told')).toEqual([]);

      // Confirmed: its answer is recorded as well (a second record, on purpose).
      await page.getByRole('button', { name: 'Record ok as well', exact: true }).last().click();
      await until(
        async () => (await recordsSince(devices, before)).length >= 2,
        'the confirmed second answer',
      );
      await page
        .getByText(/Recorded .ok. for Pressure gauge/)
        .last()
        .waitFor({ timeout: 30_000 });
      expect(await recordsSince(devices, before)).toHaveLength(2);
      expect(browserErrors.filter((error) => !/net::ERR|Failed to load resource/.test(error))).toEqual([]);
    } finally {
      for (const { context } of phones) await context.close();
    }
  }, 180_000);
});
