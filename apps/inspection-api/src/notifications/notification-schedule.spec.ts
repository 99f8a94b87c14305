import { digestTime, type NotificationPreferences, notificationTime } from './notification-schedule';

const base: NotificationPreferences = {
  events: ['check.due', 'record.failed'],
  quietHoursStart: null,
  quietHoursEnd: null,
  timeZone: null,
  reminderTime: null,
};
const at = (iso: string) => new Date(iso);

describe('notificationTime (when a reminder or alert reaches a person)', () => {
  it('sends nothing for an event the person did not choose', () => {
    expect(
      notificationTime(
        base,
        { type: 'action.done', occurredAt: at('2026-11-27T10:00:00Z') },
        at('2026-11-27T10:00:00Z'),
        'UTC',
      ),
    ).toBeNull();
  });

  it('sends a chosen event at once, never before now', () => {
    const now = at('2026-11-27T10:00:05Z');
    expect(
      notificationTime(base, { type: 'record.failed', occurredAt: at('2026-11-27T10:00:00Z') }, now, 'UTC'),
    ).toEqual(now);
  });

  it('holds a check.due reminder until the reminder time of the period start, in the person’s zone', () => {
    const preferences = { ...base, reminderTime: '08:00:00', timeZone: 'Asia/Shanghai' };
    // Due at midnight in Shanghai (16:00 UTC the day before): the reminder goes at 08:00 Shanghai = 00:00 UTC.
    const event = { type: 'check.due', occurredAt: at('2026-11-26T16:00:30Z'), periodStart: '2026-11-27' };
    expect(notificationTime(preferences, event, at('2026-11-26T16:00:30Z'), 'UTC')).toEqual(
      at('2026-11-27T00:00:00Z'),
    );
    // The same preferences without a zone of their own follow the API's zone.
    const inBerlin = { ...preferences, timeZone: null };
    expect(notificationTime(inBerlin, event, at('2026-11-26T16:00:30Z'), 'Europe/Berlin')).toEqual(
      at('2026-11-27T07:00:00Z'),
    );
  });

  it('sends a check.due at once when its reminder time has passed (a restart later the same day)', () => {
    const preferences = { ...base, reminderTime: '08:00:00' };
    const event = { type: 'check.due', occurredAt: at('2026-11-27T00:00:10Z'), periodStart: '2026-11-27' };
    const now = at('2026-11-27T09:30:00Z');
    expect(notificationTime(preferences, event, now, 'UTC')).toEqual(now);
  });

  it('keeps the reminder wall-clock time across a DST change (New York, 2026-03-08 and 2026-11-01)', () => {
    const preferences = { ...base, reminderTime: '08:00:00', timeZone: 'America/New_York' };
    const spring = { type: 'check.due', occurredAt: at('2026-03-08T05:00:00Z'), periodStart: '2026-03-08' };
    expect(notificationTime(preferences, spring, at('2026-03-08T05:00:00Z'), 'UTC')).toEqual(
      at('2026-03-08T12:00:00Z'),
    );
    const autumn = { type: 'check.due', occurredAt: at('2026-11-01T04:00:00Z'), periodStart: '2026-11-01' };
    expect(notificationTime(preferences, autumn, at('2026-11-01T04:00:00Z'), 'UTC')).toEqual(
      at('2026-11-01T13:00:00Z'),
    );
  });

  it('reads a reminder time the spring-forward skips as the due rules do (02:30 is 03:30 EDT)', () => {
    const preferences = { ...base, reminderTime: '02:30:00', timeZone: 'America/New_York' };
    const event = { type: 'check.due', occurredAt: at('2026-03-08T05:00:00Z'), periodStart: '2026-03-08' };
    expect(notificationTime(preferences, event, event.occurredAt, 'UTC')).toEqual(at('2026-03-08T07:30:00Z'));
  });

  it('waits out quiet hours within a day', () => {
    const preferences = {
      ...base,
      quietHoursStart: '12:00:00',
      quietHoursEnd: '13:30:00',
      timeZone: 'Europe/Berlin',
    };
    const event = { type: 'record.failed', occurredAt: at('2026-11-27T11:15:00Z') }; // 12:15 in Berlin
    expect(notificationTime(preferences, event, event.occurredAt, 'UTC')).toEqual(at('2026-11-27T12:30:00Z'));
    const before = { type: 'record.failed', occurredAt: at('2026-11-27T10:59:00Z') };
    expect(notificationTime(preferences, before, before.occurredAt, 'UTC')).toEqual(before.occurredAt);
  });

  it('waits out quiet hours that span midnight, on either side of it', () => {
    const preferences = {
      ...base,
      quietHoursStart: '22:00:00',
      quietHoursEnd: '07:00:00',
      timeZone: 'Asia/Shanghai',
    };
    const evening = { type: 'record.failed', occurredAt: at('2026-11-27T15:00:00Z') }; // 23:00 on the 27th
    expect(notificationTime(preferences, evening, evening.occurredAt, 'UTC')).toEqual(
      at('2026-11-27T23:00:00Z'),
    );
    const night = { type: 'record.failed', occurredAt: at('2026-11-27T19:00:00Z') }; // 03:00 on the 28th
    expect(notificationTime(preferences, night, night.occurredAt, 'UTC')).toEqual(at('2026-11-27T23:00:00Z'));
    const day = { type: 'record.failed', occurredAt: at('2026-11-28T02:00:00Z') }; // 10:00
    expect(notificationTime(preferences, day, day.occurredAt, 'UTC')).toEqual(day.occurredAt);
  });

  it('moves a reminder time inside the quiet hours to their end', () => {
    const preferences = {
      ...base,
      reminderTime: '06:00:00',
      quietHoursStart: '22:00:00',
      quietHoursEnd: '07:00:00',
    };
    const event = { type: 'check.due', occurredAt: at('2026-11-27T00:00:01Z'), periodStart: '2026-11-27' };
    expect(notificationTime(preferences, event, event.occurredAt, 'UTC')).toEqual(at('2026-11-27T07:00:00Z'));
  });

  it('gives the same time for the same event whenever it is asked again before it (a restart does not move it)', () => {
    const preferences = { ...base, reminderTime: '08:00:00' };
    const event = { type: 'check.due', occurredAt: at('2026-11-27T00:00:10Z'), periodStart: '2026-11-27' };
    const first = notificationTime(preferences, event, at('2026-11-27T00:00:10Z'), 'UTC');
    const afterRestart = notificationTime(preferences, event, at('2026-11-27T03:12:00Z'), 'UTC');
    expect(afterRestart).toEqual(first);
  });

  it('sends the daily digest at the reminder time or 08:00 of the person’s day, after the quiet hours', () => {
    expect(digestTime(base, '2026-11-27', 'Asia/Shanghai')).toEqual(at('2026-11-27T00:00:00Z'));
    const early = { ...base, reminderTime: '06:30:00', timeZone: 'Europe/Berlin' };
    expect(digestTime(early, '2026-11-27', 'UTC')).toEqual(at('2026-11-27T05:30:00Z'));
    const quiet = { ...early, quietHoursStart: '22:00:00', quietHoursEnd: '07:00:00' };
    expect(digestTime(quiet, '2026-11-27', 'UTC')).toEqual(at('2026-11-27T06:00:00Z'));
  });
});
