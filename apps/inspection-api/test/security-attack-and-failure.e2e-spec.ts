import { oversizedBody, trickleRequest } from '@fieldops/testing';
import { TestApi } from './support/test-api';

/** Probes of "trust under attack and failure" (issue 22), replayed against inspection-api so none can come back. */
describe('inspection-api under attack and failure', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_attack');
  });
  afterAll(() => api?.close());

  describe('item 1: dates at the ends of the calendar', () => {
    it('date_to 9999-12-31 on the statistics is a 400 (it used to spin until the heap was exhausted)', async () => {
      const response = await api.get('/api/statistics/records/?date_from=9999-12-30&date_to=9999-12-31');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ date_to: ['Enter a date from 0001-01-01 to 9999-12-30.'] });
      // The process still answers.
      expect((await api.get('/api/statistics/records/')).status).toBe(200);
    });

    it('year-1 dates are answered on the statistics and on due (no "timestamp out of range")', async () => {
      for (const path of [
        '/api/statistics/records/?date_from=0001-01-01&date_to=0001-01-31',
        '/api/statistics/records/?date_from=0001-01-01&date_to=0001-03-31&interval=week',
        '/api/due/?date=0001-01-01',
        '/api/due/summary/?date=0001-03-01',
      ])
        expect([path, (await api.get(path)).status]).toEqual([path, 200]);
    });

    it('dates past either end are a 400 on every date-taking route', async () => {
      for (const [path, field] of [
        ['/api/statistics/records/?date_from=0000-12-31&date_to=0001-01-02', 'date_from'],
        ['/api/due/?date=9999-12-31', 'date'],
        ['/api/due/summary/?date=0000-01-01', 'date'],
        ['/api/records/?checked_after=9999-12-31T00:00:00Z', 'checked_after'],
        ['/api/records/export.csv?checked_before=0000-06-01', 'checked_before'],
      ] as const) {
        const response = await api.get(path);
        expect([path, response.status, Object.keys(response.body as object)]).toEqual([path, 400, [field]]);
      }
    });
  });

  describe('item 6: checked_by cannot be forged by an inspector', () => {
    it("an inspector's record is theirs whatever checked_by says; a supervisor (the bot's account) may set it", async () => {
      const device = await api.createDevice();
      await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
      const inspector = (await api.tokens('ivy', 'ivy password')).access;
      const forged = await api.post(
        '/api/records/',
        { status: 'ok', device: device.id, checked_by: 'sam' },
        { token: inspector },
      );
      expect(forged.status).toBe(201);
      expect(forged.body).toMatchObject({ checked_by: 'ivy' });
      const form = new FormData();
      form.append('status', 'warn');
      form.append('device', String(device.id));
      form.append('checked_by', 'x'.repeat(500)); // ignored, not even validated
      const multipart = await api.call('POST', '/api/records/', { raw: form, token: inspector });
      expect(multipart.status).toBe(201);
      expect(multipart.body).toMatchObject({ checked_by: 'ivy' });
      const silent = await api.post(
        '/api/records/',
        { status: 'ok', device: device.id },
        { token: inspector },
      );
      expect(silent.body).toMatchObject({ checked_by: 'ivy' });
      // Supervisors, the inspection bot's service account among them, record checks in an inspector's name.
      const onBehalf = await api.post('/api/records/', {
        status: 'ok',
        device: device.id,
        checked_by: 'sam',
      });
      expect(onBehalf.body).toMatchObject({ checked_by: 'sam' });
    });
  });

  describe('item 9: tokens end with the acts meant to end them', () => {
    const refused = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

    async function inspector(username: string): Promise<number> {
      const created = await api.post('/api/users/', { username, password: `${username} password` });
      expect(created.status).toBe(201);
      return (created.body as { id: number }).id;
    }

    it('a password reset refuses the refresh and access tokens issued before it; new ones work', async () => {
      const id = await inspector('rita');
      const before = await api.tokens('rita', 'rita password');
      expect((await api.get('/api/users/me/', { token: before.access })).status).toBe(200);
      const reset = await api.post(`/api/users/${id}/set_password/`, { password: 'rita new password' });
      expect(reset.status).toBe(204);
      const refresh = await api.post('/api/token/refresh/', { refresh: before.refresh });
      expect([refresh.status, refresh.body]).toEqual([401, refused]);
      const me = await api.get('/api/users/me/', { token: before.access });
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({ code: 'token_not_valid' });
      // A sign-in right after (within the same second) gets tokens that work.
      const after = await api.tokens('rita', 'rita new password');
      expect((await api.get('/api/users/me/', { token: after.access })).status).toBe(200);
      expect((await api.post('/api/token/refresh/', { refresh: after.refresh })).status).toBe(201);
    });

    it('a deactivation revokes tokens for good: reactivating the account does not bring them back', async () => {
      const id = await inspector('dora');
      const before = await api.tokens('dora', 'dora password');
      expect((await api.patch(`/api/users/${id}/`, { is_active: false })).status).toBe(200);
      expect((await api.patch(`/api/users/${id}/`, { is_active: true })).status).toBe(200);
      expect((await api.post('/api/token/refresh/', { refresh: before.refresh })).status).toBe(401);
      expect((await api.get('/api/users/me/', { token: before.access })).status).toBe(401);
    });

    it('sign out everywhere (any role) ends every session of the user, and only theirs', async () => {
      await inspector('sven');
      await inspector('other');
      const phone = await api.tokens('sven', 'sven password');
      const laptop = await api.tokens('sven', 'sven password');
      const someoneElse = await api.tokens('other', 'other password');
      const out = await api.post('/api/users/me/sign_out_everywhere/', {}, { token: laptop.access });
      expect([out.status, out.text]).toEqual([204, '']);
      for (const pair of [phone, laptop]) {
        expect((await api.post('/api/token/refresh/', { refresh: pair.refresh })).status).toBe(401);
        expect((await api.get('/api/users/me/', { token: pair.access })).status).toBe(401);
      }
      expect((await api.get('/api/users/me/', { token: someoneElse.access })).status).toBe(200);
    });

    it('a blacklisted refresh token (one session signed out) is refused; the others stay', async () => {
      await inspector('bert');
      const one = await api.tokens('bert', 'bert password');
      const two = await api.tokens('bert', 'bert password');
      const out = await api.post('/api/token/blacklist/', { refresh: one.refresh });
      expect([out.status, out.body]).toEqual([200, {}]);
      const again = await api.post('/api/token/refresh/', { refresh: one.refresh });
      expect([again.status, again.body]).toEqual([
        401,
        { detail: 'Token is blacklisted', code: 'token_not_valid' },
      ]);
      expect((await api.post('/api/token/refresh/', { refresh: two.refresh })).status).toBe(201);
      // An access token is not a refresh token.
      expect((await api.post('/api/token/blacklist/', { refresh: two.access })).status).toBe(401);
    });
  });

  describe('item 7: CSV injection through a leading "-"', () => {
    it('a "-" cell is exported as is only when the whole cell is a number', async () => {
      const device = await api.createDevice({ code: 'CSV-1' });
      await api.post('/api/records/', { status: 'ok', device: device.id, value: "-2+3+cmd|' /C calc'!A0" });
      await api.post('/api/records/', { status: 'ok', device: device.id, value: '-3.5', note: '-A1' });
      const csv = await api.get(`/api/records/export.csv?device=${device.id}&ordering=id`);
      expect(csv.status).toBe(200);
      const rows = csv.text.trim().split('\n').slice(1);
      expect(rows[0]).toContain(",'-2+3+cmd|' /C calc'!A0,");
      expect(rows[1]).toContain(",-3.5,'-A1,");
    });
  });

  describe('item 8: bodies over the limit are cut off, not drained', () => {
    const LIMIT = 64 * 1024;
    const FILE_LIMIT = 1024 * 1024;
    // Far more than the limits plus what the kernel's socket buffers hold on loopback: a server that read or drained
    // the body takes all of it before answering.
    const TOTAL = 96 * 1024 * 1024;
    const CUT_BEFORE = 16 * 1024 * 1024;
    let small: TestApi;
    let head: (path: string, contentType: string) => string;
    beforeAll(async () => {
      small = await TestApi.start('inspection_bodies', {
        INSPECTION_MAX_BODY_BYTES: String(LIMIT),
        INSPECTION_MAX_PHOTO_BYTES: String(FILE_LIMIT),
        INSPECTION_MAX_ATTACHMENT_BYTES: String(FILE_LIMIT),
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '2000',
      });
      const { access } = await small.tokens();
      const host = new URL(small.url).host;
      head = (path, contentType) =>
        `POST ${path} HTTP/1.1\nHost: ${host}\nAuthorization: Bearer ${access}\nContent-Type: ${contentType}`;
    });
    afterAll(() => small?.close());
    const port = (): number => Number(new URL(small.url).port);

    it.each([
      ['announced by Content-Length', false],
      ['chunked', true],
    ])(
      'a JSON body over INSPECTION_MAX_BODY_BYTES, %s: 413 in DRF form, connection closed',
      async (_, chunked) => {
        const exchange = await oversizedBody(port(), head('/api/devices/', 'application/json'), TOTAL, {
          chunked,
          prefix: '{"name":"',
        });
        expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
        expect(exchange.received.toLowerCase()).toContain('connection: close');
        expect(exchange.received).toContain(`{"detail":"Request body exceeds the limit of ${LIMIT} bytes."}`);
        expect(exchange.closedByServer).toBe(true);
        expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
      },
    );

    it('a form body over the limit on the token route (no credentials needed): 413, closed', async () => {
      const host = new URL(small.url).host;
      const exchange = await oversizedBody(
        port(),
        `POST /api/token/ HTTP/1.1\nHost: ${host}\nContent-Type: application/x-www-form-urlencoded`,
        TOTAL,
        { chunked: true, prefix: 'username=' },
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
    });

    it('a multipart file over its limit is cut off at the file, not after the whole upload', async () => {
      const boundary = 'probe-boundary';
      const exchange = await oversizedBody(
        port(),
        head('/api/records/', `multipart/form-data; boundary=${boundary}`),
        TOTAL,
        {
          chunked: true,
          prefix: `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
        },
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.received).toContain(
        `{"detail":"Uploaded file exceeds the limit of ${FILE_LIMIT} bytes."}`,
      );
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
    });

    it('a body of a media type DRF does not parse is answered (415) without being read', async () => {
      const exchange = await oversizedBody(port(), head('/api/devices/', 'text/plain'), TOTAL, {
        chunked: false,
      });
      expect(exchange.received).toMatch(/^HTTP\/1\.1 415 /);
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.bodyBytesWritten).toBeLessThan(CUT_BEFORE);
    });

    it('a trickled body meets the request deadline (HTTP_REQUEST_TIMEOUT_MS): 408 and closed', async () => {
      const host = new URL(small.url).host;
      const body = '{"username":"someone","password":"' + 'x'.repeat(200) + '"}';
      const chunks = [
        `POST /api/token/ HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...body.match(/.{1,2}/g)!,
      ];
      // 120 two-byte pieces, one every 500 ms: a minute to send the whole body, far past the 2 s deadline.
      const exchange = await trickleRequest(port(), chunks, 500, 90_000);
      expect(exchange.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(exchange.closedAfterMs).toBeDefined();
    }, 120_000);
  });
});
