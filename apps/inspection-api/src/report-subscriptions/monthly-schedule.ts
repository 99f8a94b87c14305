import { addDays, type CalendarDate, monthOf } from '../calendar/calendar-date';
import { localDate, localInstant } from '../calendar/zoned-time';
import { addMonths } from '../due/due-rules';

/** When a monthly report subscription sends: a day of the month (1 to 28, so every month has it), a local time, a zone. */
export interface MonthlySchedule {
  dayOfMonth: number;
  /** Local `HH:MM` or `HH:MM:SS`. */
  sendTime: string;
  /** IANA zone the day and time are read in. */
  timeZone: string;
}

/** One send of a subscription: when it goes out, and the calendar month (of the subscription's zone) it reports. */
export interface MonthlySend {
  sendAt: Date;
  /** The first and last day of the month reported: the month before the send's month. */
  month: { start: CalendarDate; end: CalendarDate };
}

/** The send in the month that starts on `monthStart`. */
function sendIn(schedule: MonthlySchedule, monthStart: CalendarDate): MonthlySend {
  return {
    sendAt: localInstant(addDays(monthStart, schedule.dayOfMonth - 1), schedule.sendTime, schedule.timeZone),
    month: monthOf(addMonths(monthStart, -1)),
  };
}

/**
 * The one rule of "which month, when": the latest send at or before `now` (this month's when its day and time have
 * come in the subscription's zone, else last month's). The report covers the calendar month before the send's.
 */
export function latestMonthlySend(schedule: MonthlySchedule, now: Date): MonthlySend {
  const thisMonth = monthOf(localDate(now, schedule.timeZone)).start;
  const current = sendIn(schedule, thisMonth);
  return current.sendAt <= now ? current : sendIn(schedule, addMonths(thisMonth, -1));
}

/** The first send after `now`. */
export function nextMonthlySend(schedule: MonthlySchedule, now: Date): MonthlySend {
  // The latest send's month is the one after the month it reports; the next send is a month later.
  return sendIn(schedule, addMonths(latestMonthlySend(schedule, now).month.start, 2));
}
