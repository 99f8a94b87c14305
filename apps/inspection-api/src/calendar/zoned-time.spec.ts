import { localDate, localInstant, localTimeOfDay, secondsOfTime, startOfDay } from './zoned-time';

const iso = (instant: Date) => instant.toISOString();

describe('zoned time (local dates and times in a time zone)', () => {
  it('reads an instant as a local date and time of day', () => {
    const instant = new Date('2026-11-23T23:30:00Z');
    expect(localDate(instant, 'UTC')).toBe('2026-11-23');
    expect(localDate(instant, 'Asia/Shanghai')).toBe('2026-11-24');
    expect(localTimeOfDay(instant, 'Asia/Shanghai')).toBe(7 * 3600 + 30 * 60);
    expect(localTimeOfDay(instant, 'America/Los_Angeles')).toBe(15 * 3600 + 30 * 60);
    expect(localTimeOfDay(new Date('2026-11-24T00:00:00Z'), 'UTC')).toBe(0);
  });

  it('reads HH:MM and HH:MM:SS as seconds since midnight', () => {
    expect(secondsOfTime('08:00')).toBe(8 * 3600);
    expect(secondsOfTime('22:15:30')).toBe(22 * 3600 + 15 * 60 + 30);
    expect(secondsOfTime('00:00:00')).toBe(0);
  });

  it('turns a local date and time into the instant, in zones ahead of and behind UTC', () => {
    expect(iso(localInstant('2026-11-27', '08:00:00', 'Asia/Shanghai'))).toBe('2026-11-27T00:00:00.000Z');
    expect(iso(localInstant('2026-11-27', '00:00', 'Asia/Shanghai'))).toBe('2026-11-26T16:00:00.000Z');
    expect(iso(localInstant('2026-11-27', '08:00:00', 'Europe/Berlin'))).toBe('2026-11-27T07:00:00.000Z');
    expect(iso(localInstant('2026-07-01', '09:00:00', 'America/New_York'))).toBe('2026-07-01T13:00:00.000Z');
    expect(iso(localInstant('2026-11-24', '23:59:59', 'Pacific/Kiritimati'))).toBe(
      '2026-11-24T09:59:59.000Z',
    );
  });

  it('agrees with startOfDay at midnight, and keeps the wall clock across DST changes', () => {
    for (const [date, zone] of [
      ['2026-03-08', 'America/New_York'],
      ['2026-11-01', 'America/New_York'],
      ['2026-03-29', 'Europe/Berlin'],
      ['2026-11-27', 'Asia/Shanghai'],
    ] as const)
      expect(localInstant(date, '00:00:00', zone)).toEqual(startOfDay(date, zone));
    // 08:00 on the spring-forward and fall-back Sundays (EDT, then EST).
    expect(iso(localInstant('2026-03-08', '08:00:00', 'America/New_York'))).toBe('2026-03-08T12:00:00.000Z');
    expect(iso(localInstant('2026-11-01', '08:00:00', 'America/New_York'))).toBe('2026-11-01T13:00:00.000Z');
  });

  it('reads a time the change skips with the offset before it, a repeated one as the later (as PostgreSQL)', () => {
    expect(iso(localInstant('2026-03-08', '02:30:00', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(localInstant('2026-11-01', '01:30:00', 'America/New_York'))).toBe('2026-11-01T06:30:00.000Z');
    expect(iso(localInstant('2026-03-29', '02:30:00', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('round-trips: the instant of a local date and time reads back as that date and time', () => {
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe'])
      for (const time of ['00:00:00', '06:45:00', '12:00:00', '23:59:59']) {
        const instant = localInstant('2026-10-04', time, zone);
        expect(localDate(instant, zone)).toBe('2026-10-04');
        expect(localTimeOfDay(instant, zone)).toBe(secondsOfTime(time));
      }
  });
});
