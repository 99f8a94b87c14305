import { OUT_OF_RANGE_MESSAGE, readCalendarDate } from '../calendar/calendar-date';
import { type FieldErrors, isFieldErrors, validationError } from './exceptions';

/**
 * Query filters (django-filter's behaviour): an empty value means no filter, an invalid value is a 400
 * keyed by the parameter. Unknown parameters are ignored.
 */
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

export function integerFilter(
  value: string | undefined,
  name: string,
  errors: FieldErrors,
): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\s*\d{1,10}\s*$/.test(value) || Number(value) > 2_147_483_647) {
    errors[name] = [INVALID_CHOICE];
    return undefined;
  }
  return Number(value);
}

export function choiceFilter(
  value: string | undefined,
  name: string,
  choices: readonly string[],
  errors: FieldErrors,
): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!choices.includes(value)) {
    errors[name] = [`Select a valid choice. ${value} is not one of the available choices.`];
    return undefined;
  }
  return value;
}

/** `true`/`false` (also `1`/`0`, any case); anything else is ignored, as django-filter's BooleanFilter does. */
export function booleanFilter(value: string | undefined): boolean | undefined {
  const normalised = value?.trim().toLowerCase();
  if (normalised === 'true' || normalised === '1') return true;
  if (normalised === 'false' || normalised === '0') return false;
  return undefined;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time (no zone: UTC); returns a normalised ISO string for PostgreSQL. Its date part is a
 * calendar date of the accepted range (`calendar-date.ts`).
 */
export function dateTimeFilter(
  value: string | undefined,
  name: string,
  errors: FieldErrors,
): string | undefined {
  if (value === undefined || value === '') return undefined;
  const match = DATE_TIME.exec(value.trim());
  const invalid = (message = 'Enter a valid date/time.'): undefined => {
    errors[name] = [message];
    return undefined;
  };
  if (!match) return invalid();
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const date = readCalendarDate(`${year}-${month}-${day}`);
  if ('error' in date) return invalid(date.error === 'out_of_range' ? OUT_OF_RANGE_MESSAGE : undefined);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return invalid();
  const offset = zone === 'Z' ? '+00:00' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  // Real zones span -12:00..+14:00; PostgreSQL refuses displacements beyond 15:59.
  if (Number(offset.slice(1, 3)) > 15 || Number(offset.slice(4, 6)) > 59) return invalid();
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction ? `.${fraction}` : ''}${offset}`;
}

export function filterError(errors: FieldErrors): void {
  if (isFieldErrors(errors)) throw validationError(errors);
}

/**
 * A calendar date `YYYY-MM-DD` of the accepted range (`calendar-date.ts`; django-filter's DateFilter message on
 * anything that is not a date).
 */
export function dateFilter(value: string | undefined, name: string, errors: FieldErrors): string | undefined {
  if (value === undefined || value === '') return undefined;
  const reading = readCalendarDate(value.trim());
  if ('error' in reading) {
    errors[name] = [reading.error === 'out_of_range' ? OUT_OF_RANGE_MESSAGE : 'Enter a valid date.'];
    return undefined;
  }
  return reading.date;
}

/** One term of an ordering: a field and its direction. */
export interface OrderingTerm {
  field: string;
  descending: boolean;
}

/**
 * DRF's OrderingFilter reading of `?ordering=`: comma-separated fields, `-` for descending; terms naming a field that
 * is not in `fields` are dropped silently (`remove_invalid_fields`), and nothing valid means the default ordering
 * (an empty list here).
 */
export function orderingFilter(value: string | undefined, fields: readonly string[]): OrderingTerm[] {
  if (!value) return [];
  return value
    .split(',')
    .map((term) => term.trim())
    .filter((term) => fields.includes(term.replace(/^-/, '')))
    .map((term) => ({ field: term.replace(/^-/, ''), descending: term.startsWith('-') }));
}
