import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { testDatabaseUrl } from '@fieldops/testing';
import { Client } from 'pg';
import {
  type DueStatus,
  dueStatusSql,
  dueWindow,
  type DueWindow,
  type Frequency,
  FREQUENCY_SCHEDULES,
  localDate,
  parseCalendarDate,
  periodOf,
  planPeriodsSql,
  previousPeriodOf,
  type Schedule,
  scheduleBounds,
  startOfDay,
} from './due-rules';

describe('periods', () => {
  it('daily: the day itself; the previous period is the day before, across month and year ends', () => {
    expect(periodOf('daily', '2026-11-24')).toEqual({ start: '2026-11-24', end: '2026-11-24' });
    expect(previousPeriodOf('daily', '2026-03-01')).toEqual({ start: '2026-02-28', end: '2026-02-28' });
    expect(previousPeriodOf('daily', '2028-03-01')).toEqual({ start: '2028-02-29', end: '2028-02-29' });
    expect(previousPeriodOf('daily', '2027-01-01')).toEqual({ start: '2026-12-31', end: '2026-12-31' });
  });

  it('weekly: ISO weeks, Monday to Sunday, at both week boundaries and across a year end', () => {
    expect(periodOf('weekly', '2026-11-23')).toEqual({ start: '2026-11-23', end: '2026-11-29' }); // Monday
    expect(periodOf('weekly', '2026-11-29')).toEqual({ start: '2026-11-23', end: '2026-11-29' }); // Sunday
    expect(periodOf('weekly', '2026-11-30')).toEqual({ start: '2026-11-30', end: '2026-12-06' });
    expect(periodOf('weekly', '2027-01-01')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
    expect(previousPeriodOf('weekly', '2026-11-23')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
  });

  it('monthly: calendar months of 28 to 31 days, at the first and the last day', () => {
    expect(periodOf('monthly', '2026-02-01')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(periodOf('monthly', '2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(periodOf('monthly', '2026-12-31')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(previousPeriodOf('monthly', '2026-03-31')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(previousPeriodOf('monthly', '2027-01-01')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it('parses strict calendar dates only', () => {
    expect(parseCalendarDate('2028-02-29')).toBe('2028-02-29');
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-1', '2026-11-24T00:00', '', 'today'])
      expect(parseCalendarDate(bad)).toBeUndefined();
  });
});

describe('time zones', () => {
  const instant = new Date('2026-11-23T23:30:00Z');

  it('"today" is the calendar date in the configured zone', () => {
    expect(localDate(instant, 'UTC')).toBe('2026-11-23');
    expect(localDate(instant, 'Asia/Shanghai')).toBe('2026-11-24'); // 07:30 next morning
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-11-23'); // 15:30
    expect(localDate(new Date('2026-11-24T08:30:00Z'), 'America/Los_Angeles')).toBe('2026-11-24');
    expect(localDate(new Date('2026-11-24T10:30:00Z'), 'Pacific/Kiritimati')).toBe('2026-11-25'); // UTC+14
  });

  it('days start at local midnight, DST changes included', () => {
    expect(startOfDay('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(startOfDay('2026-11-24', 'Asia/Shanghai').toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(startOfDay('2026-11-24', 'America/New_York').toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(startOfDay('2026-07-01', 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(startOfDay('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z'); // after spring-forward
    expect(startOfDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z'); // DST day
    expect(startOfDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-05-01', 'Asia/Kolkata').toISOString()).toBe('2026-04-30T18:30:00.000Z');
    // Santiago skips midnight when DST starts (2026-09-06): the day starts at 01:00 local.
    expect(localDate(startOfDay('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
  });
});

/** The facts of one check as the due statements see them. */
interface CheckFacts {
  frequency: Frequency;
  /** A schedule other than the frequency's own. */
  schedule?: Schedule;
  /** The last record of the check, if any (the statement looks only before the end of the date). */
  lastCheckedAt: Date | undefined;
  deviceCreatedAt: Date;
}

describe('due status (dueStatusSql, evaluated by PostgreSQL)', () => {
  let database: ScratchDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createScratchDatabase(testDatabaseUrl(), 'due_rules');
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  /** The status the due statements give a check with these facts, in this window. */
  const dueStatus = async (facts: CheckFacts, window: DueWindow): Promise<DueStatus> => {
    const schedule = facts.schedule ?? {
      ...FREQUENCY_SCHEDULES[facts.frequency],
      starts_on: null,
      due_time: null,
    };
    const bounds = scheduleBounds(schedule, window.date, window.timeZone);
    const sql = `SELECT ${dueStatusSql({
      lastCheckedAt: '$1::timestamptz',
      deviceCreatedAt: '$2::timestamptz',
      start: '$3::timestamptz',
      previousStart: '$4::timestamptz',
      asOf: '$5::timestamptz',
      dueAt: '$6::timestamptz',
      now: '$7::timestamptz',
    })} AS "status"`;
    const values = [
      facts.lastCheckedAt ?? null,
      facts.deviceCreatedAt,
      bounds.start,
      bounds.previousStart,
      window.asOf,
      bounds.dueAt,
      window.now,
    ];
    const { rows } = await client.query<{ status: DueStatus }>(sql, values);
    return rows[0].status;
  };

  const created = new Date('2026-01-01T00:00:00Z');
  const facts = (overrides: Partial<CheckFacts>): CheckFacts => ({
    frequency: 'daily',
    lastCheckedAt: undefined,
    deviceCreatedAt: created,
    ...overrides,
  });

  it('daily in UTC: done today, due when yesterday was done, overdue when yesterday was missed', async () => {
    const window = dueWindow('2026-11-24', 'UTC');
    expect(await dueStatus(facts({ lastCheckedAt: new Date('2026-11-24T00:00:00Z') }), window)).toBe('done');
    expect(await dueStatus(facts({ lastCheckedAt: new Date('2026-11-24T23:59:59Z') }), window)).toBe('done');
    expect(await dueStatus(facts({ lastCheckedAt: new Date('2026-11-23T23:59:59Z') }), window)).toBe('due');
    expect(await dueStatus(facts({ lastCheckedAt: new Date('2026-11-22T12:00:00Z') }), window)).toBe(
      'overdue',
    );
    expect(await dueStatus(facts({}), window)).toBe('overdue');
    // A record after the date asked about does not count for it.
    expect(await dueStatus(facts({ lastCheckedAt: new Date('2026-11-25T00:00:00Z') }), window)).toBe(
      'overdue',
    );
  });

  it('a device added in the current period is due, not overdue, until checked', async () => {
    const window = dueWindow('2026-11-24', 'UTC');
    expect(await dueStatus(facts({ deviceCreatedAt: new Date('2026-11-24T06:00:00Z') }), window)).toBe('due');
    const monthly = dueWindow('2026-11-30', 'UTC');
    expect(
      await dueStatus(
        facts({ frequency: 'monthly', deviceCreatedAt: new Date('2026-11-02T00:00:00Z') }),
        monthly,
      ),
    ).toBe('due');
  });

  it('weekly and monthly: a check early in the period keeps it done until the period ends', async () => {
    const sunday = dueWindow('2026-11-29', 'UTC');
    const monday = dueWindow('2026-11-30', 'UTC');
    const checked = facts({ frequency: 'weekly', lastCheckedAt: new Date('2026-11-23T08:00:00Z') });
    expect(await dueStatus(checked, sunday)).toBe('done');
    expect(await dueStatus(checked, monday)).toBe('due');
    const month = facts({ frequency: 'monthly', lastCheckedAt: new Date('2026-11-01T00:00:00Z') });
    expect(await dueStatus(month, dueWindow('2026-11-30', 'UTC'))).toBe('done');
    expect(await dueStatus(month, dueWindow('2026-12-01', 'UTC'))).toBe('due');
  });

  it('across time zones: the same record is today in Shanghai but yesterday in Los Angeles', async () => {
    const record = facts({ lastCheckedAt: new Date('2026-11-23T23:30:00Z') });
    expect(await dueStatus(record, dueWindow('2026-11-24', 'Asia/Shanghai'))).toBe('done'); // 07:30 on the 24th
    expect(await dueStatus(record, dueWindow('2026-11-24', 'America/Los_Angeles'))).toBe('due'); // 15:30 on the 23rd
    expect(await dueStatus(record, dueWindow('2026-11-23', 'America/Los_Angeles'))).toBe('done');
    expect(await dueStatus(record, dueWindow('2026-11-24', 'UTC'))).toBe('due');
    // A weekly check on Sunday 23:30 UTC is already Monday (the next week) in Shanghai; in UTC it was last week's,
    // so this week is due, not overdue.
    const weekly = facts({ frequency: 'weekly', lastCheckedAt: new Date('2026-11-29T23:30:00Z') });
    expect(await dueStatus(weekly, dueWindow('2026-11-30', 'Asia/Shanghai'))).toBe('done');
    expect(await dueStatus(weekly, dueWindow('2026-11-30', 'UTC'))).toBe('due');
    // Missing the whole previous week is overdue.
    expect(await dueStatus(weekly, dueWindow('2026-12-07', 'UTC'))).toBe('overdue');
  });

  it('a due time makes an unchecked check overdue once it has passed', async () => {
    const schedule: Schedule = { every: 1, unit: 'day', starts_on: null, due_time: '09:00:00' };
    const before = dueWindow('2026-11-24', 'Asia/Shanghai', new Date('2026-11-24T00:59:00Z')); // 08:59
    const after = dueWindow('2026-11-24', 'Asia/Shanghai', new Date('2026-11-24T01:00:00Z')); // 09:00
    const yesterday = new Date('2026-11-23T02:00:00Z');
    expect(await dueStatus(facts({ schedule, lastCheckedAt: yesterday }), before)).toBe('due');
    expect(await dueStatus(facts({ schedule, lastCheckedAt: yesterday }), after)).toBe('overdue');
    const today = new Date('2026-11-24T03:00:00Z'); // a late check is still done
    expect(await dueStatus(facts({ schedule, lastCheckedAt: today }), after)).toBe('done');
  });

  it('the window carries the end of the date', () => {
    const window = dueWindow('2026-11-24', 'Asia/Shanghai');
    expect(window.asOf.toISOString()).toBe('2026-11-24T16:00:00.000Z');
  });
});

describe('plan periods in SQL (planPeriodsSql) agree with schedulePeriod and scheduleBounds', () => {
  let database: ScratchDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createScratchDatabase(testDatabaseUrl(), 'due_periods');
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  const schedules: Schedule[] = [
    { every: 1, unit: 'day', starts_on: null, due_time: null },
    { every: 1, unit: 'week', starts_on: null, due_time: '02:30:00' },
    { every: 1, unit: 'month', starts_on: null, due_time: '23:59:59' },
    { every: 3, unit: 'month', starts_on: null, due_time: null },
    { every: 1, unit: 'year', starts_on: null, due_time: '09:00:00' },
    { every: 2, unit: 'year', starts_on: '2024-02-29', due_time: null },
    { every: 1, unit: 'month', starts_on: '2026-01-31', due_time: '01:30:00' },
    { every: 3, unit: 'month', starts_on: '2025-11-30', due_time: null },
    { every: 2, unit: 'week', starts_on: '2026-11-04', due_time: '18:00:00' },
    { every: 10, unit: 'day', starts_on: '2028-02-25', due_time: null },
  ];
  const dates = [
    '2026-01-31',
    '2026-02-28',
    '2026-03-08',
    '2026-03-29',
    '2026-11-01',
    '2026-12-31',
    '2028-02-29',
    '1999-12-31',
  ];
  const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Shanghai'];

  it.each(zones)('%s', async (zone) => {
    for (const schedule of schedules)
      for (const date of dates) {
        const { rows } = await client.query<Record<string, Date | string | null>>(
          `SELECT pp."period_start"::text AS "start", pp."period_end"::text AS "end", pp."start_at", pp."previous_start_at", pp."due_at"
           FROM (SELECT $3::int AS "schedule_every", $4::text AS "schedule_unit", $5::date AS "starts_on", $6::time AS "due_time") p
           ${planPeriodsSql('$1', '$2::text')}`,
          [date, zone, schedule.every, schedule.unit, schedule.starts_on, schedule.due_time],
        );
        const bounds = scheduleBounds(schedule, date, zone);
        expect({ schedule, date, ...rows[0] }).toEqual({
          schedule,
          date,
          start: bounds.period.start,
          end: bounds.period.end,
          start_at: bounds.start,
          previous_start_at: bounds.previousStart,
          due_at: bounds.dueAt,
        });
      }
  });
});
