import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { type ApiResponse, TestApi } from './support/test-api';

/** A 1×1 PNG and another picture (the same PNG with a trailing byte: still a PNG, different content). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const OTHER_PNG = Buffer.concat([PNG, Buffer.from([0])]);

const REUSED = { detail: 'This Idempotency-Key was already used with a different request.' };

function photoForm(content: Buffer): FormData {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(content)], { type: 'image/png' }), 'photo.png');
  return form;
}

/**
 * `Idempotency-Key` on the record writes against a real PostgreSQL: a repeat replays the first answer, another
 * request under the same key is 422, concurrent duplicates make one record, keys are per user and outlive the app.
 */
describe('Idempotency-Key on check records', () => {
  let api: TestApi;
  let device: number;
  let inspector: string;
  let database: Client;

  beforeAll(async () => {
    api = await TestApi.start('inspection_idempotency');
    device = (await api.createDevice()).id;
    const created = await api.post('/api/users/', {
      username: 'ivy',
      password: 'ivy password',
      role: 'inspector',
    });
    expect(created.status).toBe(201);
    inspector = (await api.tokens('ivy', 'ivy password')).access;
    database = new Client({ connectionString: api.database.url });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await api?.close();
  });

  const recordCount = async (): Promise<number> =>
    ((await api.get('/api/records/?page_size=1')).body as { count: number }).count;
  const withKey = (key: string, token?: string) => ({
    headers: { 'idempotency-key': key },
    ...(token ? { token } : {}),
  });
  const sameAnswer = (a: ApiResponse, b: ApiResponse) => {
    expect(b.status).toBe(a.status);
    expect(b.text).toBe(a.text);
  };

  it('a repeat with the same key answers the first status and body, and makes no second record', async () => {
    const before = await recordCount();
    const body = { status: 'ok', device, value: '2.7 bar', note: 'fine' };
    const first = await api.post('/api/records/', body, withKey('"answer-1"'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same fields in another order, the key as a bare token: the same request.
    const repeat = await api.post(
      '/api/records/',
      { note: 'fine', value: '2.7 bar', device, status: 'ok' },
      withKey('answer-1'),
    );
    sameAnswer(first, repeat);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await recordCount()).toBe(before + 1);
  });

  it('the same key with another body, method or path is 422 in DRF format', async () => {
    const first = await api.post('/api/records/', { status: 'ok', device }, withKey('answer-2'));
    expect(first.status).toBe(201);
    const before = await recordCount();
    const other = await api.post('/api/records/', { status: 'fail', device }, withKey('answer-2'));
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toBe('application/json');
    expect(other.text).toBe(JSON.stringify(REUSED));
    const elsewhere = await api.patch(
      `/api/records/${(first.body as { id: number }).id}/`,
      { note: 'x' },
      withKey('answer-2'),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual(REUSED);
    expect(await recordCount()).toBe(before);
  });

  it('a refused write stores nothing: the key then serves the corrected request', async () => {
    const refused = await api.post('/api/records/', { status: 'maybe', device }, withKey('answer-3'));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ status: ['"maybe" is not a valid choice.'] });
    const fixed = await api.post('/api/records/', { status: 'warn', device }, withKey('answer-3'));
    expect(fixed.status).toBe(201);
    sameAnswer(fixed, await api.post('/api/records/', { status: 'warn', device }, withKey('answer-3')));
  });

  it('keys are per user: the same key from another account is another request', async () => {
    const mine = await api.post('/api/records/', { status: 'ok', device }, withKey('shared-key'));
    const theirs = await api.post(
      '/api/records/',
      { status: 'ok', device, checked_by: 'ivy' },
      withKey('shared-key', inspector),
    );
    expect(theirs.status).toBe(201);
    expect((theirs.body as { id: number }).id).not.toBe((mine.body as { id: number }).id);
    sameAnswer(
      theirs,
      await api.post(
        '/api/records/',
        { status: 'ok', device, checked_by: 'ivy' },
        withKey('shared-key', inspector),
      ),
    );
  });

  it('concurrent duplicates make one record, and every one of them gets its answer', async () => {
    const before = await recordCount();
    const body = { status: 'fail', device, note: 'double tap' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.post('/api/records/', body, withKey('tapped-twice'))),
    );
    for (const answer of answers) sameAnswer(answers[0], answer);
    expect(answers[0]?.status).toBe(201);
    expect(await recordCount()).toBe(before + 1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
  });

  it('the photo upload (multipart PATCH) with a key stores one photo; another picture under it is 422', async () => {
    const record = (await api.post('/api/records/', { status: 'warn', device })).body as { id: number };
    const photos = async () => (await readdir(join(api.mediaRoot, 'photos')).catch(() => [])).length;
    const before = await photos();
    const upload = (content: Buffer) =>
      api.call('PATCH', `/api/records/${record.id}/`, {
        raw: photoForm(content),
        headers: { 'idempotency-key': 'photo-1' },
      });
    // Each form gets its own multipart boundary: the parts, not the bytes on the wire, are compared.
    const [first, second] = await Promise.all([upload(PNG), upload(PNG)]);
    expect(first.status).toBe(200);
    sameAnswer(first, second);
    sameAnswer(first, await upload(PNG));
    expect((first.body as { photo: string }).photo).toMatch(/\/media\/photos\/[0-9a-f]{32}\.png$/);
    expect(await photos()).toBe(before + 1);
    const other = await upload(OTHER_PNG);
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect(await photos()).toBe(before + 1);
  });

  it('a key that is no key is a 400', async () => {
    for (const header of ['"unterminated', '"x" y', 'a'.repeat(256), '""', '"é"', 'é']) {
      const response = await api.post('/api/records/', { status: 'ok', device }, withKey(header));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: 'Idempotency-Key must be a string of 1 to 255 printable ASCII characters.',
      });
    }
  });

  it('a key holds across a restart of the app (and on another replica of the same database)', async () => {
    const first = await api.restartLike();
    const body = JSON.stringify({ status: 'ok', device, note: 'before the restart' });
    const send = (url: string) =>
      fetch(`${url}/api/records/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${inspector}`,
          'content-type': 'application/json',
          'idempotency-key': 'survives',
        },
        body,
      });
    const made = await send(first.url);
    const madeText = await made.text();
    expect(made.status).toBe(201);
    await first.close();
    const second = await api.restartLike();
    try {
      const before = await recordCount();
      const replayed = await send(second.url);
      expect(replayed.status).toBe(201);
      expect(await replayed.text()).toBe(madeText);
      expect(await recordCount()).toBe(before);
    } finally {
      await second.close();
    }
  });

  it('a key is kept for INSPECTION_IDEMPOTENCY_KEY_HOURS (24 by default), then purged', async () => {
    const first = await api.post('/api/records/', { status: 'ok', device }, withKey('old-key'));
    expect(first.status).toBe(201);
    await database.query(
      `UPDATE "idempotency_keys" SET "created_at" = now() - interval '23 hours 59 minutes' WHERE "key" = 'old-key'`,
    );
    expect((await api.post('/api/records/', { status: 'fail', device }, withKey('old-key'))).status).toBe(
      422,
    );
    await database.query(
      `UPDATE "idempotency_keys" SET "created_at" = now() - interval '24 hours 1 minute' WHERE "key" = 'old-key'`,
    );
    // An expired key is free again.
    const again = await api.post('/api/records/', { status: 'fail', device }, withKey('old-key'));
    expect(again.status).toBe(201);
    expect((again.body as { id: number }).id).not.toBe((first.body as { id: number }).id);

    // The purge (at start-up, then hourly) deletes expired keys.
    await database.query(
      `UPDATE "idempotency_keys" SET "created_at" = now() - interval '25 hours' WHERE "key" = 'old-key'`,
    );
    const replica = await api.restartLike();
    try {
      const remaining = async () =>
        (await database.query(`SELECT count(*)::int AS "n" FROM "idempotency_keys" WHERE "key" = 'old-key'`))
          .rows[0] as { n: number };
      for (let attempt = 0; attempt < 200 && (await remaining()).n > 0; attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await remaining()).n).toBe(0);
    } finally {
      await replica.close();
    }
  });
});
