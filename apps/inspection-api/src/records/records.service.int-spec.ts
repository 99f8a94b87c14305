import { ActionsService } from '../actions/actions.service';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { testDatabaseUrl } from '@fieldops/testing';
import { createLogger } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { inspectionDataSourceOptions } from '../database/inspection-data-source';
import { DrfException } from '../drf/exceptions';
import { type Input } from '../drf/serializer';
import { type UploadedPart } from '../drf/request-input';
import { type ResourceRequest } from '../drf/resource-routes';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { LocalDirectoryMediaStorage, type MediaKind } from '../media/media-storage';
import { EventOutbox } from '../events/event-outbox';
import { recordPageSql, RecordsService } from './records.service';

/**
 * RecordsService against a real PostgreSQL (a scratch database with the app's migrations) and the real local
 * media storage in a temporary directory: validation, file handling, the references and what happens when a
 * write races a delete. The HTTP side (parsing, status, bytes) is covered by test/*.e2e-spec.ts.
 */

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f1a30000000049454e44ae426082',
  'hex',
);
const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';
const NOT_AN_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';
const VANISHED = { non_field_errors: ['A referenced device, plan or item no longer exists.'] };
const ORIGIN = 'http://api.test:8000';
const MEDIA = `${ORIGIN}/media/`;
const PHOTO_LIMIT = 200;
const ATTACHMENT_LIMIT = 32;

/** Local storage whose next save runs `beforeSave` first (to race a delete) or fails for one kind. */
class ObservedStorage extends LocalDirectoryMediaStorage {
  beforeSave?: () => Promise<void>;
  failFor?: MediaKind;

  override async save(kind: MediaKind, content: Buffer, extension: string): Promise<string> {
    const hook = this.beforeSave;
    this.beforeSave = undefined;
    if (hook) await hook();
    if (kind === this.failFor) throw new Error(`disk full while saving ${kind}`);
    return super.save(kind, content, extension);
  }
}

let database: ScratchDatabase;
let dataSource: DataSource;
let mediaRoot: string;
let storage: ObservedStorage;
let service: RecordsService;
let device: number;
let otherDevice: number;
let item: number;
let otherDevicesItem: number;
let plan: number;

const json =
  (data: unknown): (() => Input) =>
  () => ({ kind: 'json', data });

const part = (fieldname: string, buffer: Buffer, originalname = 'upload.bin'): UploadedPart => ({
  fieldname,
  originalname,
  mimetype: 'application/octet-stream',
  size: buffer.length,
  buffer,
});

/** A multipart body: text fields (as the parser leaves them, lists of strings) and file parts. */
function multipart(
  fields: Record<string, string>,
  parts: UploadedPart[] = [],
): { readInput: () => Input; request: ResourceRequest } {
  const data = new Map(Object.entries(fields).map(([name, value]) => [name, [value]]));
  const files = new Map(parts.map((file) => [file.fieldname, file]));
  return { readInput: () => ({ kind: 'form', data }), request: { origin: ORIGIN, files: () => files } };
}

const request: ResourceRequest = { origin: ORIGIN, files: () => new Map() };

/** The DrfException `work` rejects with, as status and wire body. */
async function failure(work: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const error: unknown = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DrfException)) throw new Error(`expected a DrfException, got ${String(error)}`);
  return { status: error.getStatus(), body: error.getResponse() };
}

async function storedFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const kind of ['photos', 'attachments']) {
    const directory = join(mediaRoot, kind);
    if (!existsSync(directory)) continue;
    for (const name of await readdir(directory)) found.push(`${kind}/${name}`);
  }
  return found.sort();
}

const keyOf = (url: unknown): string => String(url).slice(MEDIA.length);

async function insertId(sql: string, parameters: unknown[]): Promise<number> {
  const rows: Array<{ id: number }> = await dataSource.query(`${sql} RETURNING "id"`, parameters);
  return rows[0].id;
}

beforeAll(async () => {
  database = await createScratchDatabase(testDatabaseUrl(), 'records_service');
  dataSource = new DataSource(inspectionDataSourceOptions(database.url, 2));
  await dataSource.initialize();
  await dataSource.runMigrations();
  mediaRoot = await mkdtemp(join(tmpdir(), 'records-service-'));
  storage = new ObservedStorage(
    mediaRoot,
    createLogger({ service: 'records-service-spec', level: 'silent' }),
  );
  const environment = Object.assign(new InspectionApiEnvironment(), {
    INSPECTION_MAX_PHOTO_BYTES: PHOTO_LIMIT,
    INSPECTION_MAX_ATTACHMENT_BYTES: ATTACHMENT_LIMIT,
  });
  const logger = createLogger({ service: 'records-service-spec', level: 'silent' });
  service = new RecordsService(
    dataSource,
    storage,
    environment,
    new IdempotencyService(dataSource, environment, logger),
    new ActionsService(dataSource, storage, environment, new EventOutbox()),
    new EventOutbox(),
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
  if (mediaRoot) await rm(mediaRoot, { recursive: true, force: true });
});

beforeEach(async () => {
  await dataSource.query(
    'TRUNCATE "check_records", "check_plan_devices", "check_plans", "check_items", "devices" RESTART IDENTITY CASCADE',
  );
  storage.beforeSave = undefined;
  storage.failFor = undefined;
  for (const kind of ['photos', 'attachments'])
    await rm(join(mediaRoot, kind), { recursive: true, force: true });
  device = await insertId(`INSERT INTO "devices" ("name", "code") VALUES ('Pump 1', 'P-1')`, []);
  otherDevice = await insertId(`INSERT INTO "devices" ("name", "code") VALUES ('Pump 2', 'P-2')`, []);
  item = await insertId(`INSERT INTO "check_items" ("name", "device_id") VALUES ('Pressure', $1)`, [device]);
  otherDevicesItem = await insertId(`INSERT INTO "check_items" ("name", "device_id") VALUES ('Flow', $1)`, [
    otherDevice,
  ]);
  plan = await insertId(`INSERT INTO "check_plans" ("name", "frequency") VALUES ('Daily', 'daily')`, []);
  await dataSource.query('INSERT INTO "check_plan_devices" ("plan_id", "device_id") VALUES ($1, $2)', [
    plan,
    device,
  ]);
});

describe('RecordsService.create', () => {
  it('answers the representation in the serializer order, with model defaults and a DRF timestamp', async () => {
    const record = (await service.create(json({ status: 'ok', device }), request)) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      'id',
      'status',
      'value',
      'note',
      'photo',
      'attachment',
      'checked_at',
      'checked_by',
      'plan',
      'device',
      'item',
      'source',
      'out_of_range',
    ]);
    expect(record).toMatchObject({
      id: 1,
      status: 'ok',
      value: '',
      note: '',
      photo: null,
      attachment: null,
      checked_by: '',
      plan: null,
      device,
      item: null,
    });
    expect(record.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/);
  });

  it('records how it was made: source "api" unless the client says "chat" or "qr"; anything else is a 400', async () => {
    expect(await service.create(json({ status: 'ok', device }), request)).toMatchObject({ source: 'api' });
    expect(await service.create(json({ status: 'ok', device, source: 'qr' }), request)).toMatchObject({
      source: 'qr',
    });
    expect(
      (await failure(service.create(json({ status: 'ok', device, source: 'nfc' }), request))).body,
    ).toEqual({
      source: ['"nfc" is not a valid choice.'],
    });
  });

  it('ignores photo and attachment in JSON (read-only there) and every other unknown or read-only key', async () => {
    const record = await service.create(
      json({ status: 'warn', device, photo: 'x.png', attachment: null, id: 77, checked_at: '2000-01-01' }),
      request,
    );
    expect(record).toMatchObject({ id: 1, photo: null, attachment: null, status: 'warn' });
    expect(await storedFiles()).toEqual([]);
  });

  it('reports every failing field at once, file fields in their serializer place', async () => {
    const { readInput, request: upload } = multipart({ status: 'bad', photo: 'not a file', plan: '99' }, [
      part('attachment', Buffer.alloc(0)),
    ]);
    const { status, body } = await failure(service.create(readInput, upload));
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        status: ['"bad" is not a valid choice.'],
        photo: [NOT_A_FILE],
        attachment: ['The submitted file is empty.'],
        plan: ['Invalid pk "99" - object does not exist.'],
        device: ['This field is required.'],
      }),
    );
    expect(await storedFiles()).toEqual([]);
  });

  it('checks that plan, device and item exist, and reports a wrong type per reference', async () => {
    const { body } = await failure(
      service.create(json({ status: 'ok', device: 999, plan: true, item: 'abc' }), request),
    );
    expect(body).toEqual({
      plan: ['Incorrect type. Expected pk value, received bool.'],
      device: ['Invalid pk "999" - object does not exist.'],
      item: ['Incorrect type. Expected pk value, received str.'],
    });
  });

  it('does not require the item to belong to the device, nor the plan to include it (no such DRF validator)', async () => {
    const record = await service.create(
      json({ status: 'fail', device: otherDevice, item, plan, value: ' 3 bar ' }),
      request,
    );
    expect(record).toMatchObject({ device: otherDevice, item, plan, value: '3 bar' });
    const other = await service.create(json({ status: 'ok', device, item: otherDevicesItem }), request);
    expect(other).toMatchObject({ device, item: otherDevicesItem });
  });

  it('a body that is not an object fails as a whole', async () => {
    expect((await failure(service.create(json([1]), request))).body).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    });
    expect((await failure(service.create(json(null), request))).body).toEqual({
      non_field_errors: ['No data provided'],
    });
  });

  it('stores a photo recognised by content (whatever its name) and an attachment under its safe extension', async () => {
    const { readInput, request: upload } = multipart({ status: 'ok', device: String(device), item: '' }, [
      part('photo', PNG, 'holiday.txt'),
      part('attachment', Buffer.from('%PDF-1.4'), 'Report.PDF'),
    ]);
    const record = (await service.create(readInput, upload)) as Record<string, unknown>;
    expect(record.item).toBeNull();
    expect(keyOf(record.photo)).toMatch(/^photos\/[0-9a-f]{32}\.png$/);
    expect(keyOf(record.attachment)).toMatch(/^attachments\/[0-9a-f]{32}\.pdf$/);
    expect(String(record.photo).startsWith(MEDIA)).toBe(true);
    expect(await storedFiles()).toEqual([keyOf(record.attachment), keyOf(record.photo)]);
  });

  it('refuses a photo that is not an image, and takes an attachment without extension', async () => {
    const refused = multipart({ status: 'ok', device: String(device) }, [
      part('photo', Buffer.from('<html>'), 'x.png'),
    ]);
    expect((await failure(service.create(refused.readInput, refused.request))).body).toEqual({
      photo: [NOT_AN_IMAGE],
    });
    const bare = multipart({ status: 'ok', device: String(device) }, [
      part('attachment', Buffer.from('data'), 'README'),
    ]);
    const record = (await service.create(bare.readInput, bare.request)) as Record<string, unknown>;
    expect(keyOf(record.attachment)).toMatch(/^attachments\/[0-9a-f]{32}$/);
  });

  it('answers 413 for a file over its limit, even when other fields are invalid, and stores nothing', async () => {
    const photo = multipart({ status: 'nope' }, [
      part('photo', Buffer.concat([PNG, Buffer.alloc(PHOTO_LIMIT)])),
    ]);
    expect(await failure(service.create(photo.readInput, photo.request))).toEqual({
      status: 413,
      body: { detail: `The photo exceeds the limit of ${PHOTO_LIMIT} bytes.` },
    });
    const attachment = multipart({ status: 'ok', device: String(device) }, [
      part('attachment', Buffer.alloc(ATTACHMENT_LIMIT + 1)),
    ]);
    expect((await failure(service.create(attachment.readInput, attachment.request))).body).toEqual({
      detail: `The attachment exceeds the limit of ${ATTACHMENT_LIMIT} bytes.`,
    });
    expect(await storedFiles()).toEqual([]);
  });

  it('takes an empty text field for a file as "no file"', async () => {
    const { readInput, request: upload } = multipart({ status: 'ok', device: String(device), photo: '' });
    expect(await service.create(readInput, upload)).toMatchObject({ photo: null });
  });

  it('removes the files it stored when a later file cannot be stored', async () => {
    storage.failFor = 'attachments';
    const { readInput, request: upload } = multipart({ status: 'ok', device: String(device) }, [
      part('photo', PNG),
      part('attachment', Buffer.from('x')),
    ]);
    await expect(service.create(readInput, upload)).rejects.toThrow('disk full while saving attachments');
    expect(await storedFiles()).toEqual([]);
    expect(await dataSource.query('SELECT count(*)::int AS "n" FROM "check_records"')).toEqual([{ n: 0 }]);
  });

  it('answers 400 and removes its new files when a reference is deleted between validation and insert', async () => {
    storage.beforeSave = async () => {
      await dataSource.query('DELETE FROM "check_items" WHERE "id" = $1', [item]);
    };
    const { readInput, request: upload } = multipart(
      { status: 'ok', device: String(device), item: String(item) },
      [part('photo', PNG)],
    );
    expect(await failure(service.create(readInput, upload))).toEqual({ status: 400, body: VANISHED });
    expect(await storedFiles()).toEqual([]);
  });
});

describe('RecordsService.update', () => {
  async function recordWithFiles(): Promise<Record<string, unknown>> {
    const { readInput, request: upload } = multipart(
      { status: 'ok', device: String(device), note: 'first' },
      [part('photo', PNG), part('attachment', Buffer.from('a'), 'a.txt')],
    );
    return (await service.create(readInput, upload)) as Record<string, unknown>;
  }

  it('is 404 for a missing record before the body is read (DRF checks the object first)', async () => {
    const readInput = jest.fn((): Input => {
      throw new Error('the body was read');
    });
    expect(await failure(service.update(42, readInput, true, request))).toEqual({
      status: 404,
      body: { detail: 'Not found.' },
    });
    expect(readInput).not.toHaveBeenCalled();
  });

  it('PUT needs the required fields; PATCH assigns only what is sent', async () => {
    const created = (await service.create(json({ status: 'ok', device, note: 'keep', plan }), request)) as {
      id: number;
    };
    expect((await failure(service.update(created.id, json({ note: 'x' }), false, request))).body).toEqual({
      status: ['This field is required.'],
      device: ['This field is required.'],
    });
    expect(await service.update(created.id, json({ value: '7' }), true, request)).toMatchObject({
      status: 'ok',
      value: '7',
      note: 'keep',
      plan,
    });
    expect(
      await service.update(created.id, json({ status: 'warn', device, plan: null }), false, request),
    ).toMatchObject({ status: 'warn', note: 'keep', plan: null });
    expect(await service.update(created.id, json({}), true, request)).toMatchObject({ value: '7' });
  });

  it('replacing a file removes the old one once the row points at the new one; the other file stays', async () => {
    const created = await recordWithFiles();
    const { readInput, request: upload } = multipart({}, [part('photo', PNG)]);
    const updated = (await service.update(created.id as number, readInput, true, upload)) as Record<
      string,
      unknown
    >;
    expect(updated.photo).not.toBe(created.photo);
    expect(updated.attachment).toBe(created.attachment);
    expect(updated.note).toBe('first');
    expect(await storedFiles()).toEqual([keyOf(created.attachment), keyOf(updated.photo)].sort());
  });

  it('an empty text field clears a file and removes it; JSON cannot clear it', async () => {
    const created = await recordWithFiles();
    expect(
      await service.update(created.id as number, json({ attachment: null }), true, request),
    ).toMatchObject({
      attachment: created.attachment,
    });
    const { readInput, request: upload } = multipart({ attachment: '' });
    expect(await service.update(created.id as number, readInput, true, upload)).toMatchObject({
      attachment: null,
      photo: created.photo,
    });
    expect(await storedFiles()).toEqual([keyOf(created.photo)]);
  });

  it('a multipart PUT validates as a full write and keeps the files when it fails', async () => {
    const created = await recordWithFiles();
    const { readInput, request: upload } = multipart({ status: 'ok' }, [part('photo', PNG)]);
    expect((await failure(service.update(created.id as number, readInput, false, upload))).body).toEqual({
      device: ['This field is required.'],
    });
    expect(await storedFiles()).toEqual([keyOf(created.attachment), keyOf(created.photo)].sort());
  });

  it('is 404 and keeps no new file when the record is deleted while the files are stored', async () => {
    const created = await recordWithFiles();
    storage.beforeSave = async () => {
      await dataSource.query('DELETE FROM "check_records" WHERE "id" = $1', [created.id]);
    };
    const { readInput, request: upload } = multipart({}, [part('photo', PNG)]);
    expect((await failure(service.update(created.id as number, readInput, true, upload))).status).toBe(404);
    // The new photo is gone; the deleted record's own files are left to whoever deleted it (remove() does).
    expect(await storedFiles()).toEqual([keyOf(created.attachment), keyOf(created.photo)].sort());
  });

  it('answers 400 when a reference is deleted between validation and the write, keeping the old files', async () => {
    const created = await recordWithFiles();
    storage.beforeSave = async () => {
      await dataSource.query('DELETE FROM "check_plans" WHERE "id" = $1', [plan]);
    };
    const { readInput, request: upload } = multipart({ plan: String(plan) }, [part('photo', PNG)]);
    expect(await failure(service.update(created.id as number, readInput, true, upload))).toEqual({
      status: 400,
      body: VANISHED,
    });
    expect(await storedFiles()).toEqual([keyOf(created.attachment), keyOf(created.photo)].sort());
    expect(await service.findOne(created.id as number, request)).toMatchObject({
      photo: created.photo,
      plan: null,
    });
  });
});

describe('RecordsService.remove and findOne', () => {
  it('deletes the row and its files; a second delete and a read are 404', async () => {
    const { readInput, request: upload } = multipart({ status: 'ok', device: String(device) }, [
      part('photo', PNG),
    ]);
    const created = (await service.create(readInput, upload)) as { id: number };
    await service.remove(created.id);
    expect(await storedFiles()).toEqual([]);
    expect((await failure(service.remove(created.id))).status).toBe(404);
    expect((await failure(service.findOne(created.id, request))).body).toEqual({ detail: 'Not found.' });
  });

  it('builds file URLs on the origin of each request', async () => {
    const { readInput, request: upload } = multipart({ status: 'ok', device: String(device) }, [
      part('photo', PNG),
    ]);
    const created = (await service.create(readInput, upload)) as { id: number; photo: string };
    const elsewhere = (await service.findOne(created.id, {
      origin: 'https://inspections.example',
      files: () => new Map(),
    })) as {
      photo: string;
    };
    expect(elsewhere.photo).toBe(`https://inspections.example/media/${keyOf(created.photo)}`);
  });
});

describe('RecordsService.page', () => {
  beforeEach(async () => {
    for (const [status, on] of [
      ['ok', device],
      ['warn', device],
      ['fail', otherDevice],
      ['ok', otherDevice],
      ['ok', device],
    ] as const)
      await service.create(json({ status, device: on, plan: on === device ? plan : null }), request);
  });

  const ids = (results: unknown): number[] => (results as Array<{ id: number }>).map((record) => record.id);

  it('filters by reference and status, newest first, and counts what matches', async () => {
    const page = await service.page(MEDIA, { device, status: 'ok' }, { page: 1, size: 20 });
    expect(page.count).toBe(2);
    expect(ids(page.results)).toEqual([5, 1]);
    expect(ids((await service.page(MEDIA, { plan }, { page: 1, size: 20 })).results)).toEqual([5, 2, 1]);
    const oldestFirst = await service.page(
      MEDIA,
      { plan, ordering: [{ field: 'id', descending: false }] },
      {
        page: 1,
        size: 20,
      },
    );
    expect(ids(oldestFirst.results)).toEqual([1, 2, 5]);
  });

  it('pages by size, resolves "last", and is "Invalid page." beyond it', async () => {
    expect(ids((await service.page(MEDIA, {}, { page: 2, size: 2 })).results)).toEqual([3, 2]);
    const last = await service.page(MEDIA, {}, { page: 'last', size: 2 });
    expect({ page: last.page, ids: ids(last.results) }).toEqual({ page: 3, ids: [1] });
    expect(await failure(service.page(MEDIA, {}, { page: 4, size: 2 }))).toEqual({
      status: 404,
      body: { detail: 'Invalid page.' },
    });
    expect(
      (await failure(service.page(MEDIA, {}, { page: Number.MAX_SAFE_INTEGER, size: 100 }))).status,
    ).toBe(404);
  });

  it('answers page 1 of an empty result, and filters by checked_at bounds', async () => {
    expect(await service.page(MEDIA, { item }, { page: 1, size: 20 })).toEqual({
      count: 0,
      page: 1,
      results: [],
    });
    expect(
      (await service.page(MEDIA, { checkedAfter: '2999-01-01T00:00:00+00:00' }, { page: 1, size: 5 })).count,
    ).toBe(0);
    expect(
      (await service.page(MEDIA, { checkedBefore: '2999-01-01T00:00:00+00:00' }, { page: 1, size: 5 })).count,
    ).toBe(5);
  });

  it('numbers the statement parameters after the media base, in filter order', () => {
    const { sql, parameters } = recordPageSql(MEDIA, { status: 'ok', device: 3, checkedAfter: 'T' }, 10, 20);
    expect(parameters).toEqual([MEDIA, 3, 'ok', 'T', 10, 20]);
    expect(sql).toContain('r."device_id" = $2 AND r."status" = $3 AND r."checked_at" >= $4::timestamptz');
    expect(sql).toContain('LIMIT $5 OFFSET $6');
  });
});
