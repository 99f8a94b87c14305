import { type PlanSchedule } from '../api/resources';

type Translate = (key: string, options?: object) => string;

/**
 * A plan's schedule in words: "Daily", "Every 3 days", "Quarterly", "Every 2 years", then its due time and first
 * day when set ("Quarterly, due by 16:00, from 1 Jan 2027"). The API's `frequency` word is not used: a schedule
 * says more (every 3 months reads `monthly` there).
 */
export function scheduleText(
  schedule: PlanSchedule,
  translate: Translate,
  formatDate: (day: string) => string,
) {
  const { every, unit } = schedule;
  let text: string;
  if (every === 1) text = translate(`console.schedule.each.${unit}`);
  else if (unit === 'month' && every === 3) text = translate('console.schedule.quarterly');
  else text = translate(`console.schedule.every.${unit}`, { every });
  if (schedule.due_time)
    text += translate('console.schedule.due_by', { time: schedule.due_time.slice(0, 5) });
  if (schedule.starts_on)
    text += translate('console.schedule.from', { date: formatDate(schedule.starts_on) });
  return text;
}

/** A calendar day (`YYYY-MM-DD`) as the locale writes it, without a time zone shifting it. */
export function calendarDayFormatter(locale: string): (day: string) => string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return (day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    return Number.isNaN(time) ? day : format.format(time);
  };
}
