import { consoleChinese, consoleEnglish } from '../i18n/console-messages';
import { calendarDayFormatter, scheduleText } from './schedule-text';

/** A translate on the console's own messages (polyglot's `%{name}` interpolation). */
function translateIn(messages: object) {
  return (key: string, options: object = {}) => {
    const found = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], messages);
    if (typeof found !== 'string') throw new Error(`no message ${key}`);
    return found.replace(/%\{(\w+)\}/g, (_, name: string) =>
      String((options as Record<string, unknown>)[name]),
    );
  };
}

describe('a plan’s schedule in words', () => {
  const en = translateIn(consoleEnglish);
  const zh = translateIn(consoleChinese);
  const enDay = calendarDayFormatter('en-GB');
  const zhDay = calendarDayFormatter('zh-CN');

  it('names every 1 unit by its word, every 3 months as quarterly, the rest by their count', () => {
    const cases: [number, 'day' | 'week' | 'month' | 'year', string, string][] = [
      [1, 'day', 'Daily', '每天'],
      [1, 'week', 'Weekly', '每周'],
      [1, 'month', 'Monthly', '每月'],
      [1, 'year', 'Yearly', '每年'],
      [3, 'month', 'Quarterly', '每季度'],
      [10, 'day', 'Every 10 days', '每 10 天'],
      [2, 'week', 'Every 2 weeks', '每 2 周'],
      [6, 'month', 'Every 6 months', '每 6 个月'],
      [5, 'year', 'Every 5 years', '每 5 年'],
    ];
    for (const [every, unit, english, chinese] of cases) {
      const schedule = { every, unit, starts_on: null, due_time: null };
      expect([scheduleText(schedule, en, enDay), scheduleText(schedule, zh, zhDay)]).toEqual([
        english,
        chinese,
      ]);
    }
  });

  it('adds the due time (to the minute) and the first day, in the locale’s words', () => {
    const schedule = { every: 3, unit: 'month' as const, starts_on: '2027-01-31', due_time: '16:00:00' };
    expect(scheduleText(schedule, en, enDay)).toBe('Quarterly, due by 16:00, from 31 Jan 2027');
    expect(scheduleText(schedule, zh, zhDay)).toBe('每季度，16:00 前完成，自 2027年1月31日 起');
  });

  it('reads a calendar day as that day in every time zone', () => {
    expect(calendarDayFormatter('en-US')('2027-03-01')).toBe('Mar 1, 2027');
    expect(calendarDayFormatter('en-US')('not a day')).toBe('not a day');
  });
});
