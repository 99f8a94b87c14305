import { Client } from 'pg';
import { TestApi } from './support/test-api';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const HEADER =
  'id,checked_at,device_code,device_name,item,plan,status,value,note,checked_by,photo,attachment,source';

describe('GET /api/records/export.csv', () => {
  let api: TestApi;
  let db: Client;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    api = await TestApi.start('inspection_export');
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    ids.pump = (await api.createDevice({ name: 'Pump, main', code: 'P-1' })).id;
    ids.tank = (await api.createDevice({ name: '储罐', code: '=T-2' })).id;
    ids.item = (
      (await api.post('/api/items/', { name: 'Pressure', device: ids.pump })).body as { id: number }
    ).id;
    ids.plan = (
      (await api.post('/api/plans/', { name: 'Daily', frequency: 'daily', devices: [ids.pump] })).body as {
        id: number;
      }
    ).id;
    const data = new FormData();
    data.append('status', 'fail');
    data.append('device', String(ids.pump));
    data.append('item', String(ids.item));
    data.append('plan', String(ids.plan));
    data.append('value', '-3.5');
    data.append('note', 'leaks "a lot"\nsecond line'); // multipart turns the newline into CRLF
    data.append('checked_by', 'ivy');
    data.append('source', 'qr');
    data.append('photo', new Blob([PNG], { type: 'image/png' }), 'p.png');
    ids.first = ((await api.call('POST', '/api/records/', { raw: data })).body as { id: number }).id;
    ids.second = (
      (await api.post('/api/records/', { status: 'ok', device: ids.tank, note: '+cmd', checked_by: 'sam' }))
        .body as { id: number }
    ).id;
    await db.query(
      `UPDATE "check_records" SET "checked_at" = '2026-11-24T08:00:00.123456Z' WHERE "id" = $1`,
      [ids.first],
    );
    await db.query(`UPDATE "check_records" SET "checked_at" = '2026-11-25T09:30:00Z' WHERE "id" = $1`, [
      ids.second,
    ]);
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('streams every record as CSV with names, absolute photo URLs and DRF timestamps', async () => {
    const response = await api.get('/api/records/export.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="records.csv"');
    expect(response.headers.get('content-length')).toBeNull(); // streamed (chunked), not buffered
    const photo = ((await api.get(`/api/records/${ids.first}/`)).body as { photo: string }).photo;
    expect(photo).toMatch(new RegExp(`^${api.url}/media/photos/`));
    expect(response.text).toBe(
      [
        HEADER,
        // Newest first, as the list. Cells people type that start like a formula get a leading apostrophe.
        `${ids.second},2026-11-25T09:30:00Z,'=T-2,储罐,,,ok,,'+cmd,sam,,,api`,
        `${ids.first},2026-11-24T08:00:00.123456Z,P-1,"Pump, main",Pressure,Daily,fail,-3.5,"leaks ""a lot""\r\nsecond line",ivy,${photo},,qr`,
        '',
      ].join('\n'),
    );
  });

  it("takes the records list's filters", async () => {
    const rows = async (query: string) =>
      (await api.get(`/api/records/export.csv?${query}`)).text.trim().split('\n');
    expect(await rows('status=ok')).toHaveLength(2);
    expect(await rows(`device=${ids.pump}`)).toHaveLength(3); // the note spans two lines
    expect(await rows(`plan=${ids.plan}&item=${ids.item}`)).toHaveLength(3);
    expect(await rows('checked_by=sam')).toEqual([HEADER, expect.stringMatching(/^\d+,/) as unknown]);
    expect(await rows('checked_after=2026-11-25')).toHaveLength(2);
    expect(await rows('checked_before=2026-11-25')).toHaveLength(3);
    expect(await rows('status=warn')).toEqual([HEADER]);
    // The list takes checked_by too.
    expect((await api.get('/api/records/?checked_by=sam')).body).toMatchObject({ count: 1 });
  });

  it("orders by ?ordering= as DRF's OrderingFilter (unknown fields ignored), the list and the export alike", async () => {
    const listed = async (query: string) =>
      ((await api.get(`/api/records/?${query}`)).body as { results: Array<{ id: number }> }).results.map(
        (record) => record.id,
      );
    expect(await listed('')).toEqual([ids.second, ids.first]); // newest first by default
    expect(await listed('ordering=checked_at')).toEqual([ids.first, ids.second]);
    expect(await listed('ordering=id')).toEqual([ids.first, ids.second]);
    expect(await listed('ordering=-checked_at')).toEqual([ids.second, ids.first]);
    expect(await listed('ordering=status,-id')).toEqual([ids.first, ids.second]); // fail < ok
    expect(await listed('ordering=-status')).toEqual([ids.second, ids.first]);
    expect(await listed('ordering=nonsense,-checked_at')).toEqual([ids.second, ids.first]);
    expect(await listed('ordering=nonsense')).toEqual([ids.second, ids.first]); // nothing valid: the default
    const page = await api.get('/api/records/?ordering=-checked_at&page_size=1');
    expect((page.body as { next: string }).next).toMatch(/\?ordering=-checked_at&page=2&page_size=1$/);
    const exported = (await api.get('/api/records/export.csv?ordering=-checked_at')).text.trim().split('\n');
    expect(exported[1]).toMatch(new RegExp(`^${ids.second},`));
  });

  it('refuses bad filters with a DRF 400, and needs a token; inspectors may export', async () => {
    const bad = await api.get('/api/records/export.csv?status=bad&device=x');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/json');
    expect(bad.body).toEqual({
      device: ['Select a valid choice. That choice is not one of the available choices.'],
      status: ['Select a valid choice. bad is not one of the available choices.'],
    });
    expect((await api.get('/api/records/export.csv', { token: false })).status).toBe(401);
    expect((await api.call('POST', '/api/records/export.csv', { json: {} })).status).toBe(405);
    await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    const inspector = (await api.tokens('ivy', 'ivy password')).access;
    expect((await api.get('/api/records/export.csv', { token: inspector })).status).toBe(200);
  });

  it('returns its connection to the pool when the client goes away mid-stream', async () => {
    await db.query(
      `INSERT INTO "check_records" ("status", "device_id", "note") SELECT 'ok', $1, repeat('x', 200) FROM generate_series(1, 20000)`,
      [ids.pump],
    );
    const token = await api.token();
    for (let round = 0; round < 12; round += 1) {
      const controller = new AbortController();
      const response = await fetch(`${api.url}/api/records/export.csv`, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      const reader = response.body?.getReader();
      await reader?.read();
      controller.abort();
    }
    // The pool (10 connections) would be exhausted by 12 leaked cursors; the API still answers.
    const after = await api.get('/api/devices/');
    expect(after.status).toBe(200);
    const full = await api.get('/api/records/export.csv');
    expect(full.text.trim().split('\n').length).toBeGreaterThan(20_000);
  }, 60_000);

  it('is in the OpenAPI document', async () => {
    const document = (await api.get('/api/schema/')).body as { paths: Record<string, object> };
    expect(Object.keys(document.paths['/api/records/export.csv'] ?? {})).toEqual(['get']);
  });
});
