import { type FieldErrors } from '../drf/exceptions';
import { pythonStr, pythonTypeName } from '../drf/python-text';

/**
 * Typed check items: the one owner of what an item's type allows and of when a record's value is out of range.
 *
 * - `text` (the default, the spec's free value): no limits, never out of range.
 * - `number`: optional `min` and `max` (inclusive) and a `unit` shown with them; a value is out of range when its
 *   leading number (`3.1`, `3,1`, `3.1 bar`) is below `min` or above `max`, or when it has no number at all.
 * - `yes_no`: answered yes or no; the status says whether that passed, so never out of range.
 * - `choice`: one of `options`; another value is out of range.
 * An empty value (nothing measured) is never out of range.
 */
export const ITEM_TYPES = ['text', 'number', 'yes_no', 'choice'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export interface ItemDefinition {
  type: ItemType;
  unit: string;
  min: number | null;
  max: number | null;
  options: string[];
}

export const MAX_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 100;

const NUMBER = 'A valid number is required.';

/** DRF's FloatField (nullable): a JSON number or a numeric string; `null` (or an empty form value) clears. */
export function readLimit(value: unknown): { value: number | null } | { error: string } {
  if (value === null || value === '') return { value: null };
  if (typeof value === 'boolean' || typeof value === 'object') return { error: NUMBER };
  const text = pythonStr(value).trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return { error: NUMBER };
  const number = Number(text);
  if (!Number.isFinite(number)) return { error: NUMBER };
  return { value: number };
}

/** DRF's ListField(child=CharField(max_length=100)) with at most MAX_OPTIONS entries; blanks are errors. */
export function readOptions(value: unknown): { value: string[] } | { error: string[] } {
  if (!Array.isArray(value))
    return { error: [`Expected a list of items but got type "${pythonTypeName(value)}".`] };
  if (value.length > MAX_OPTIONS)
    return { error: [`Ensure this field has no more than ${MAX_OPTIONS} elements.`] };
  const options: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' && typeof item !== 'number') return { error: ['Not a valid string.'] };
    const text = pythonStr(item).trim();
    if (!text) return { error: ['This field may not be blank.'] };
    if ([...text].length > MAX_OPTION_LENGTH)
      return { error: [`Ensure this field has no more than ${MAX_OPTION_LENGTH} characters.`] };
    options.push(text);
  }
  if (new Set(options).size !== options.length) return { error: ['Items in this list must be unique.'] };
  return { value: options };
}

/**
 * The item's definition after a write: `current` (the stored one, or the defaults for a new item) with the `sent`
 * fields. Fields another type does not use are cleared when the type changes and they were not sent; sent, they are
 * errors — as are a `min` above `max` and a `choice` without options.
 */
export function definitionAfter(
  current: ItemDefinition,
  sent: Partial<ItemDefinition>,
): { definition: ItemDefinition } | { errors: FieldErrors } {
  const type = sent.type ?? current.type;
  const changed = sent.type !== undefined && sent.type !== current.type;
  const pick = <K extends keyof ItemDefinition>(key: K, empty: ItemDefinition[K]): ItemDefinition[K] =>
    sent[key] !== undefined ? sent[key] : changed ? empty : current[key];
  const definition: ItemDefinition = {
    type,
    unit: pick('unit', ''),
    min: pick('min', null),
    max: pick('max', null),
    options: pick('options', []),
  };
  const errors: FieldErrors = {};
  if (type !== 'number') {
    if (definition.unit) errors.unit = ['Only a number item has a unit.'];
    if (definition.min !== null) errors.min = ['Only a number item has limits.'];
    if (definition.max !== null) errors.max = ['Only a number item has limits.'];
  } else if (definition.min !== null && definition.max !== null && definition.min > definition.max) {
    errors.non_field_errors = ['min must not be greater than max.'];
  }
  if (type === 'choice' && definition.options.length === 0)
    errors.options = ['A choice item needs at least one option.'];
  if (type !== 'choice' && definition.options.length > 0)
    errors.options = ['Only a choice item has options.'];
  return Object.keys(errors).length ? { errors } : { definition };
}

/** The leading number of a measured value (`3.1`, `-2`, `3,1 bar`), or undefined. */
export function leadingNumber(value: string): number | undefined {
  const match = /^\s*([+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?)/.exec(value);
  return match ? Number(match[1].replace(',', '.')) : undefined;
}

/** Whether a record's value is outside its item's definition (see the module comment). */
export function isOutOfRange(definition: ItemDefinition, value: string): boolean {
  const text = value.trim();
  if (!text) return false;
  switch (definition.type) {
    case 'number': {
      const number = leadingNumber(text);
      if (number === undefined) return true;
      return (
        (definition.min !== null && number < definition.min) ||
        (definition.max !== null && number > definition.max)
      );
    }
    case 'choice':
      return !definition.options.includes(text);
    case 'text':
    case 'yes_no':
      return false;
  }
}
