import fc from 'fast-check';
import {
  addDays,
  civilDate,
  daysBetween,
  FIRST_DATE,
  formatCivilDate,
  LAST_DATE,
  parseCalendarDate,
  toDayNumber,
} from '../src/calendar/calendar-date';
import { periodOf } from '../src/due/due-rules';
import { TestApi } from './support/test-api';

/**
 * Every date-taking route over the whole date range (and past both ends): a date of 0001-01-01..9999-12-30 is
 * answered, anything else is DRF's 400 naming the parameter; never a 5xx, never a hang.
 */
const FIRST_DAY = toDayNumber(FIRST_DATE);
const LAST_DAY = toDayNumber(LAST_DATE);

/** A day from a little before year 1 to a little after year 9999, the edges more often. */
const anyDay = fc.oneof(
  fc.integer({ min: toDayNumber('0000-01-01'), max: toDayNumber('10000-12-31') }),
  fc.integer({ min: FIRST_DAY - 400, max: FIRST_DAY + 400 }),
  fc.integer({ min: LAST_DAY - 400, max: LAST_DAY + 400 }),
);
/** As a query value: `YYYY-MM-DD` as `formatCivilDate` writes it (`10000-01-01` is not a valid date). */
const anyDate = anyDay.map((days) => formatCivilDate(civilDate(days)));
const inRange = (date: string): boolean => parseCalendarDate(date) !== undefined;

const anyDateTime = fc
  .tuple(
    anyDate,
    fc.option(fc.constantFrom('T00:00', 'T23:59:59', ' 12:00:00.5', 'T00:00:00Z'), { nil: '' }),
    fc.option(fc.constantFrom('+14:00', '-12:00', '+15:59', '-1559', 'Z'), { nil: '' }),
  )
  .map(([date, time, zone]) => ({ date, text: `${date}${time}${time && !time.endsWith('Z') ? zone : ''}` }));

/** A DRF field error body naming exactly the expected parameters. */
function expectFieldErrors(body: unknown, fields: string[]): void {
  expect(Object.keys(body as object).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    const messages = (body as Record<string, unknown>)[field];
    expect(Array.isArray(messages) && messages.every((message) => typeof message === 'string')).toBe(true);
  }
}

describe('dates on every date-taking route (the whole range)', () => {
  let api: TestApi;
  beforeAll(async () => {
    // UTC+14: local midnight of 0001-01-01 is in 1 BC, and the end of 9999-12-30 is the next day in UTC too.
    api = await TestApi.start('inspection_dates', { INSPECTION_TIME_ZONE: 'Pacific/Kiritimati' });
    const device = await api.createDevice();
    await api.post('/api/plans/', { name: 'P', devices: [device.id], frequency: 'weekly' });
    await api.post('/api/records/', { status: 'ok', device: device.id });
  });
  afterAll(() => api?.close());

  it('the reported crash: date_to 9999-12-31 is a 400; the last accepted days are answered', async () => {
    const crash = await api.get('/api/statistics/records/?date_from=9999-12-30&date_to=9999-12-31');
    expect(crash.status).toBe(400);
    expect(crash.body).toEqual({ date_to: ['Enter a date from 0001-01-01 to 9999-12-30.'] });
    const last = await api.get(
      '/api/statistics/records/?date_from=9999-12-29&date_to=9999-12-30&interval=week',
    );
    expect(last.status).toBe(200);
    expect(last.body.results).toEqual([{ period: '9999-12-27', ok: 0, warn: 0, fail: 0 }]);
    const first = await api.get('/api/statistics/records/?date_to=0001-01-03');
    expect(first.status).toBe(200);
    expect(first.body.date_from).toBe('0001-01-01');
    expect(first.body.results).toHaveLength(3);
    for (const path of ['/api/due/?date=0001-01-01', '/api/due/summary/?date=0001-01-01'])
      expect((await api.get(path)).status).toBe(200);
  });

  it('statistics: date_from and date_to over the whole range, by day and by week', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyDate,
        fc.oneof(fc.integer({ min: -3, max: 40 }), fc.integer({ min: 990, max: 1010 }), fc.constant(7200)),
        fc.oneof(anyDate, fc.constant(undefined)),
        fc.constantFrom('day', 'week'),
        async (from, span, other, interval) => {
          const to = other ?? formatCivilDate(civilDate(toDayNumber(from) + span));
          const response = await api.get(
            `/api/statistics/records/?date_from=${from}&date_to=${encodeURIComponent(to)}&interval=${interval}`,
          );
          const bad = [...(inRange(from) ? [] : ['date_from']), ...(inRange(to) ? [] : ['date_to'])];
          if (bad.length > 0) {
            expect(response.status).toBe(400);
            expectFieldErrors(response.body, bad);
            return;
          }
          const days = daysBetween(from, to);
          const periods =
            interval === 'day'
              ? days + 1
              : daysBetween(periodOf('weekly', from).start, periodOf('weekly', to).start) / 7 + 1;
          if (days < 0 || periods > 1000) {
            expect(response.status).toBe(400);
            expectFieldErrors(response.body, [days < 0 ? 'date_to' : 'date_from']);
            return;
          }
          expect(response.status).toBe(200);
          const results = response.body.results as Array<{ period: string }>;
          expect(results).toHaveLength(periods);
          expect(results[0]?.period).toBe(interval === 'day' ? from : periodOf('weekly', from).start);
          expect(results.at(-1)?.period).toBe(interval === 'day' ? to : periodOf('weekly', to).start);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('due and its summary: date over the whole range', async () => {
    await fc.assert(
      fc.asyncProperty(anyDate, fc.constantFrom('/api/due/', '/api/due/summary/'), async (date, path) => {
        const response = await api.get(`${path}?date=${date}`);
        if (!inRange(date)) {
          expect(response.status).toBe(400);
          expectFieldErrors(response.body, ['date']);
          return;
        }
        expect(response.status).toBe(200);
        if (path === '/api/due/summary/') expect(response.body.date).toBe(date);
        else {
          const [check] = response.body.results as Array<{ period_start: string; period_end: string }>;
          expect(check?.period_start).toBe(periodOf('weekly', date).start);
          expect(check?.period_end).toBe(addDays(periodOf('weekly', date).start, 6));
        }
      }),
      { numRuns: 250 },
    );
  });

  it('records list and CSV export: checked_after and checked_before over the whole range', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyDateTime,
        anyDateTime,
        fc.constantFrom('/api/records/', '/api/records/export.csv'),
        async (after, before, path) => {
          const query = new URLSearchParams({ checked_after: after.text, checked_before: before.text });
          const response = await api.get(`${path}?${query.toString()}`);
          const bad = [
            ...(inRange(after.date) ? [] : ['checked_after']),
            ...(inRange(before.date) ? [] : ['checked_before']),
          ];
          if (bad.length > 0) {
            expect(response.status).toBe(400);
            expectFieldErrors(response.body, bad);
          } else expect(response.status).toBe(200);
        },
      ),
      { numRuns: 250 },
    );
  });
});
