import { type FieldErrors } from './exceptions';
import { OUT_OF_RANGE_MESSAGE, readCalendarDate } from '../calendar/calendar-date';
import { pythonStr, pythonTypeName } from './python-text';

/**
 * DRF ModelSerializer field semantics for the four resources, message for message (rest_framework 3.14
 * fields.py / relations.py): CharField, ChoiceField, BooleanField, PrimaryKeyRelatedField and its
 * many=True form. Each field is validated independently and every failing field is reported.
 */
export type FieldSpec =
  | { kind: 'char'; name: string; required: boolean; allowBlank: boolean; maxLength?: number; trim?: boolean }
  | { kind: 'choice'; name: string; required: boolean; choices: readonly string[] }
  | { kind: 'bool'; name: string }
  | { kind: 'pk'; name: string; required: boolean; nullable: boolean; table: string }
  | { kind: 'pks'; name: string; required: boolean; table: string; allowEmpty?: boolean }
  | { kind: 'date'; name: string; required: boolean; nullable: boolean };

/** Parsed request input: a JSON value, or form fields (urlencoded or multipart) as lists of strings. */
export type Input = { kind: 'json'; data: unknown } | { kind: 'form'; data: Map<string, string[]> };

/** Looks up which of `ids` exist in `table` (one query per related table). */
export type ExistingIds = (table: string, ids: number[]) => Promise<Set<number>>;

export type FieldValue = string | boolean | number | null | number[];

const MISSING = Symbol('missing');
type Raw = unknown;

const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE']);
TRUE_VALUES.add('on').add('On').add('ON').add('1').add(1).add(true);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE']);
FALSE_VALUES.add('off').add('Off').add('OFF').add('0').add(0).add(false);

/** DRF's BooleanField reading of a JSON or form value (its TRUE_VALUES / FALSE_VALUES); undefined: not a boolean. */
export function readDrfBoolean(value: unknown): boolean | undefined {
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  return undefined;
}

const MAX_PK = 2_147_483_647;
/** Python's str.isspace() set, close enough for str.strip(). */
const isBlank = (text: string): boolean => text.trim() === '';

/** DRF `Field.get_value` for form input (html.is_html_input). */
function formValue(spec: FieldSpec, data: Map<string, string[]>, partial: boolean): Raw {
  const values = data.get(spec.name);
  if (spec.kind === 'pks') {
    if (values === undefined && partial) return MISSING;
    return values ?? [];
  }
  if (values === undefined) return spec.kind === 'bool' && !partial ? false : MISSING;
  const value = values[values.length - 1] ?? '';
  if (value === '') {
    if ((spec.kind === 'pk' || spec.kind === 'date') && spec.nullable) return null;
    const required = spec.kind === 'bool' ? false : spec.required;
    if (!required) return spec.kind === 'char' && spec.allowBlank ? '' : MISSING;
  }
  return value;
}

type Outcome = { value: FieldValue } | { error: string } | { skip: true } | { pk: unknown; ids: number[] };

/** Python's int() of a pk value: a number (truncated) or a decimal string; undefined if it would raise. */
function toPk(value: unknown): number | undefined | 'type' {
  if (typeof value === 'boolean' || value === null || typeof value === 'object') return 'type';
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : 'type';
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value.trim(), 10);
  return 'type';
}

const incorrectType = (value: unknown): string =>
  `Incorrect type. Expected pk value, received ${pythonTypeName(value)}.`;

function validateChar(spec: Extract<FieldSpec, { kind: 'char' }>, value: unknown): Outcome {
  const trim = spec.trim ?? true;
  if (value === '' || (trim && isBlank(pythonStr(value)) && typeof value !== 'object')) {
    return spec.allowBlank ? { value: '' } : { error: 'This field may not be blank.' };
  }
  if (typeof value !== 'string' && typeof value !== 'number') return { error: 'Not a valid string.' };
  const text = trim ? pythonStr(value).trim() : pythonStr(value);
  const errors: string[] = [];
  if (spec.maxLength !== undefined && [...text].length > spec.maxLength)
    errors.push(`Ensure this field has no more than ${spec.maxLength} characters.`);
  if (text.includes('\0')) errors.push('Null characters are not allowed.');
  const surrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text);
  if (surrogate)
    errors.push(
      `Surrogate characters are not allowed: U+${surrogate[0].charCodeAt(0).toString(16).toUpperCase()}.`,
    );
  return errors.length ? { error: errors.join('\n') } : { value: text };
}

/** DRF's DateField (ISO 8601 `YYYY-MM-DD`), within the calendar's accepted range (`calendar-date.ts`). */
const DATE_FORMAT = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';

function validateOne(spec: FieldSpec, value: unknown): Outcome {
  switch (spec.kind) {
    case 'date': {
      if (typeof value !== 'string') return { error: DATE_FORMAT };
      const reading = readCalendarDate(value.trim());
      if ('error' in reading)
        return { error: reading.error === 'out_of_range' ? OUT_OF_RANGE_MESSAGE : DATE_FORMAT };
      return { value: reading.date };
    }
    case 'char':
      return validateChar(spec, value);
    case 'choice': {
      const text = pythonStr(value);
      return spec.choices.includes(text) ? { value: text } : { error: `"${text}" is not a valid choice.` };
    }
    case 'bool': {
      const reading = readDrfBoolean(value);
      return reading === undefined ? { error: 'Must be a valid boolean.' } : { value: reading };
    }
    case 'pk': {
      const pk = toPk(value);
      if (pk === 'type') return { error: incorrectType(value) };
      return { pk: value, ids: pk !== undefined && pk >= 1 && pk <= MAX_PK ? [pk] : [] };
    }
    case 'pks': {
      if (typeof value !== 'object' || value === null)
        return { error: `Expected a list of items but got type "${pythonTypeName(value)}".` };
      const items: unknown[] = Array.isArray(value) ? value : Object.keys(value);
      if (items.length === 0)
        return spec.allowEmpty ? { value: [] } : { error: 'This list may not be empty.' };
      const ids: number[] = [];
      for (const item of items) {
        const pk = item === null ? undefined : toPk(item);
        if (pk === 'type') break;
        if (pk !== undefined && pk >= 1 && pk <= MAX_PK) ids.push(pk);
      }
      return { pk: items, ids };
    }
  }
}

/** Resolves pk outcomes against the database: first failing element wins (ManyRelatedField). */
function resolvePks(spec: FieldSpec, raw: unknown, existing: Set<number>): Outcome {
  const check = (item: unknown): { id: number } | { error: string } => {
    const pk = item === null ? undefined : toPk(item);
    if (pk === 'type') return { error: incorrectType(item) };
    if (pk === undefined || !existing.has(pk))
      return { error: `Invalid pk "${pythonStr(item)}" - object does not exist.` };
    return { id: pk };
  };
  if (spec.kind === 'pk') {
    const result = check(raw);
    return 'error' in result ? result : { value: result.id };
  }
  const ids: number[] = [];
  for (const item of raw as unknown[]) {
    const result = check(item);
    if ('error' in result) return result;
    ids.push(result.id);
  }
  if (new Set(ids).size !== ids.length) return { error: 'Items in this list must be unique.' };
  return { value: ids };
}

export interface ValidationResult {
  values: Record<string, FieldValue>;
  errors: FieldErrors;
}

/**
 * Validates `input` against `specs` like `Serializer.is_valid()`: required / null / blank / type / length
 * checks per field, then one existence query per related table. `unique` runs extra per-field checks on
 * fields that are otherwise valid (UniqueValidator). A body that is not an object fails as a whole.
 */
export async function validateInput(
  input: Input,
  specs: readonly FieldSpec[],
  options: {
    partial: boolean;
    existingIds: ExistingIds;
    extraChecks?: Record<string, (value: FieldValue) => Promise<string | undefined>>;
  },
): Promise<ValidationResult> {
  const { partial } = options;
  if (input.kind === 'json') {
    const data = input.data;
    if (data === null) return { values: {}, errors: { non_field_errors: ['No data provided'] } };
    if (typeof data !== 'object' || Array.isArray(data)) {
      return {
        values: {},
        errors: {
          non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(data)}.`],
        },
      };
    }
  }
  const outcomes = new Map<string, Outcome>();
  for (const spec of specs) {
    let raw: Raw;
    if (input.kind === 'form') {
      raw = formValue(spec, input.data, partial);
    } else {
      const data = input.data as Record<string, unknown>;
      raw = Object.prototype.hasOwnProperty.call(data, spec.name) ? data[spec.name] : MISSING;
    }
    if (spec.kind === 'pk' && raw === '') raw = null; // RelatedField.run_validation
    const required = spec.kind === 'bool' ? false : spec.required;
    if (raw === MISSING) {
      outcomes.set(spec.name, required && !partial ? { error: 'This field is required.' } : { skip: true });
    } else if (raw === null) {
      const nullable = (spec.kind === 'pk' || spec.kind === 'date') && spec.nullable;
      outcomes.set(spec.name, nullable ? { value: null } : { error: 'This field may not be null.' });
    } else {
      outcomes.set(spec.name, validateOne(spec, raw));
    }
  }
  // One existence query per related table.
  const wanted = new Map<string, number[]>();
  for (const spec of specs) {
    const outcome = outcomes.get(spec.name);
    if (outcome && 'ids' in outcome && (spec.kind === 'pk' || spec.kind === 'pks'))
      wanted.set(spec.table, [...(wanted.get(spec.table) ?? []), ...outcome.ids]);
  }
  const existing = new Map<string, Set<number>>();
  for (const [table, ids] of wanted) {
    existing.set(table, ids.length ? await options.existingIds(table, [...new Set(ids)]) : new Set());
  }
  const values: Record<string, FieldValue> = {};
  const errors: FieldErrors = {};
  for (const spec of specs) {
    let outcome = outcomes.get(spec.name) as Outcome;
    if ('pk' in outcome && (spec.kind === 'pk' || spec.kind === 'pks'))
      outcome = resolvePks(spec, outcome.pk, existing.get(spec.table) ?? new Set());
    if ('value' in outcome) {
      const check = options.extraChecks?.[spec.name];
      const problem = check ? await check(outcome.value) : undefined;
      if (problem) errors[spec.name] = [problem];
      else values[spec.name] = outcome.value;
    } else if ('error' in outcome) {
      errors[spec.name] = outcome.error.split('\n');
    }
  }
  return { values, errors };
}
