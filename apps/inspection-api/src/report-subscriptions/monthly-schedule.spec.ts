import { latestMonthlySend, nextMonthlySend } from './monthly-schedule';

const at = (iso: string) => new Date(iso);

describe('monthly report schedule: which month, when', () => {
  const shanghai = { dayOfMonth: 1, sendTime: '07:00', timeZone: 'Asia/Shanghai' };

  it('sends on the 1st at 07:00 in its zone, reporting the month before', () => {
    // 07:00 on 1 December in Shanghai is 23:00 UTC on 30 November.
    const send = latestMonthlySend(shanghai, at('2026-11-30T23:00:00Z'));
    expect(send.sendAt.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(send.month).toEqual({ start: '2026-11-01', end: '2026-11-30' });
  });

  it('before the send time the latest send is last month’s, and the next one is today’s', () => {
    const now = at('2026-11-30T22:59:59Z'); // 06:59:59 on 1 December in Shanghai
    const latest = latestMonthlySend(shanghai, now);
    expect(latest.sendAt.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(latest.month).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    const next = nextMonthlySend(shanghai, now);
    expect(next.sendAt.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(next.month).toEqual({ start: '2026-11-01', end: '2026-11-30' });
  });

  it('reads the day in the subscription’s zone, not UTC', () => {
    // 30 November 23:30 UTC: still November in New York, already 1 December in Shanghai (after 07:00).
    const now = at('2026-11-30T23:30:00Z');
    expect(latestMonthlySend(shanghai, now).month.start).toBe('2026-11-01');
    const newYork = { dayOfMonth: 1, sendTime: '07:00', timeZone: 'America/New_York' };
    expect(latestMonthlySend(newYork, now).month.start).toBe('2026-10-01');
    expect(nextMonthlySend(newYork, now).sendAt.toISOString()).toBe('2026-12-01T12:00:00.000Z');
  });

  it('crosses the year: January sends December’s report', () => {
    const send = latestMonthlySend(
      { dayOfMonth: 3, sendTime: '09:30', timeZone: 'UTC' },
      at('2027-01-10T00:00:00Z'),
    );
    expect(send.sendAt.toISOString()).toBe('2027-01-03T09:30:00.000Z');
    expect(send.month).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(
      nextMonthlySend({ dayOfMonth: 3, sendTime: '09:30', timeZone: 'UTC' }, at('2027-01-10T00:00:00Z'))
        .month,
    ).toEqual({
      start: '2027-01-01',
      end: '2027-01-31',
    });
  });

  it('keeps the local time across a DST change (Europe/Berlin, UTC+1 in winter, +2 in summer)', () => {
    const berlin = { dayOfMonth: 1, sendTime: '07:00', timeZone: 'Europe/Berlin' };
    expect(latestMonthlySend(berlin, at('2026-04-15T00:00:00Z')).sendAt.toISOString()).toBe(
      '2026-04-01T05:00:00.000Z',
    );
    expect(latestMonthlySend(berlin, at('2026-03-15T00:00:00Z')).sendAt.toISOString()).toBe(
      '2026-03-01T06:00:00.000Z',
    );
  });

  it('the 28th exists in February', () => {
    const send = latestMonthlySend(
      { dayOfMonth: 28, sendTime: '00:00', timeZone: 'UTC' },
      at('2027-03-01T00:00:00Z'),
    );
    expect(send.sendAt.toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(send.month).toEqual({ start: '2027-01-01', end: '2027-01-31' });
  });
});
