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
});
