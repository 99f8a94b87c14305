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
});
