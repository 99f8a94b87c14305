import { type CalendarDate, OUT_OF_RANGE_MESSAGE, readCalendarDate } from '../calendar/calendar-date';
import { type Input } from '../drf/serializer';
import { pythonStr, pythonTypeName } from '../drf/python-text';
import {
  frequencyOf,
  type Frequency,
  MAX_EVERY,
  type Schedule,
  SCHEDULE_UNITS,
  type ScheduleUnit,
} from '../due/due-rules';

/** A nested serializer's errors: a list for the field itself, or an object keyed by its fields. */
export type ScheduleErrors = string[] | Record<string, string[]>;

export type ScheduleReading = { missing: true } | { schedule: Schedule } | { errors: ScheduleErrors };

const DATE_FORMAT = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
const TIME_FORMAT = 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].';
const INTEGER = 'A valid integer is required.';

/** DRF's IntegerField (min 1, max MAX_EVERY): `3`, `3.0`, `"3"` are 3; `3.5`, `true`, `"x"` are not integers. */
function readEvery(value: unknown): number | string {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && /^\s*[+-]?\d+(\.0*)?\s*$/.test(value)) number = Number(value);
  else return INTEGER;
  if (!Number.isInteger(number)) return INTEGER;
  if (number < 1) return 'Ensure this value is greater than or equal to 1.';
  if (number > MAX_EVERY) return `Ensure this value is less than or equal to ${MAX_EVERY}.`;
  return number;
}

/** DRF's TimeField (ISO 8601 `hh:mm[:ss[.uuuuuu]]`), kept to the second as `HH:MM:SS`. */
function readTime(value: unknown): string | { error: string } {
  const match =
    typeof value === 'string' ? /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(value.trim()) : null;
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59)
    return { error: TIME_FORMAT };
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
}

/** The `schedule` object of a body: JSON, or form keys `schedule.every`, `schedule.unit`, … (DRF's parse_html_dict). */
function rawSchedule(input: Input): unknown {
  if (input.kind === 'json') {
    const data = input.data as Record<string, unknown>;
    return Object.prototype.hasOwnProperty.call(data, 'schedule') ? data.schedule : undefined;
  }
  const fields: Record<string, string> = {};
  for (const [key, values] of input.data)
    if (key.startsWith('schedule.')) fields[key.slice('schedule.'.length)] = values[values.length - 1] ?? '';
  return Object.keys(fields).length ? fields : undefined;
}

/**
 * The `schedule` of a plan body, validated as a whole (a nested serializer: `every` and `unit` are required even in
 * a PATCH, which replaces the schedule): `{every: 1..366, unit: day|week|month|year, starts_on?: date|null,
 * due_time?: "hh:mm[:ss]"|null}`.
 */
export function readSchedule(input: Input): ScheduleReading {
  const raw = rawSchedule(input);
  if (raw === undefined) return { missing: true };
  if (raw === null) return { errors: ['This field may not be null.'] };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return {
      errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(raw)}.`] },
    };
  const data = raw as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const present = (key: string) => Object.prototype.hasOwnProperty.call(data, key) && data[key] !== '';
  let every = 1;
  if (!present('every')) errors.every = ['This field is required.'];
  else if (data.every === null) errors.every = ['This field may not be null.'];
  else {
    const reading = readEvery(data.every);
    if (typeof reading === 'string') errors.every = [reading];
    else every = reading;
  }
  let unit: ScheduleUnit = 'day';
  if (!present('unit')) errors.unit = ['This field is required.'];
  else if (data.unit === null) errors.unit = ['This field may not be null.'];
  else if (!SCHEDULE_UNITS.includes(pythonStr(data.unit) as ScheduleUnit))
    errors.unit = [`"${pythonStr(data.unit)}" is not a valid choice.`];
  else unit = pythonStr(data.unit) as ScheduleUnit;
  let startsOn: CalendarDate | null = null;
  if (present('starts_on') && data.starts_on !== null) {
    const reading = typeof data.starts_on === 'string' ? readCalendarDate(data.starts_on.trim()) : undefined;
    if (!reading || 'error' in reading)
      errors.starts_on = [reading?.error === 'out_of_range' ? OUT_OF_RANGE_MESSAGE : DATE_FORMAT];
    else startsOn = reading.date;
  }
  let dueTime: string | null = null;
  if (present('due_time') && data.due_time !== null) {
    const reading = readTime(data.due_time);
    if (typeof reading === 'string') dueTime = reading;
    else errors.due_time = [reading.error];
  }
  if (Object.keys(errors).length) return { errors };
  return { schedule: { every, unit, starts_on: startsOn, due_time: dueTime } };
}

/** The error when a body's `frequency` is not the word its `schedule` shows as (`frequencyOf`). */
export function frequencyMismatch(frequency: Frequency, schedule: Schedule): string | undefined {
  const expected = frequencyOf(schedule.unit);
  return frequency === expected
    ? undefined
    : `"${frequency}" does not match the schedule (every ${schedule.every} ${schedule.unit}): send "${expected}", or leave frequency out.`;
}
