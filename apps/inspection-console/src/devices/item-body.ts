import { type CheckItem } from '../api/resources';

/** A check item as the device form holds it (options as the lines typed, limits possibly blank). */
export type ItemInput = Partial<
  Pick<CheckItem, 'id' | 'name' | 'description' | 'expected_value' | 'type' | 'unit' | 'min' | 'max'>
> & { options?: string[] | null };

const SPEC_FIELDS = ['name', 'description', 'expected_value'] as const;

const limit = (value: unknown): number | null =>
  value === null || value === undefined || value === '' || Number.isNaN(Number(value)) ? null : Number(value);

/**
 * An item's body for `/api/items/`: the spec's fields, its type, and only the fields that type uses (a number's
 * unit and limits, a choice's options without blank lines), since the API refuses a unit, limits or options on
 * another type.
 */
export function itemBody(item: ItemInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of SPEC_FIELDS) if (field in item) body[field] = item[field] ?? '';
  body.type = item.type ?? 'text';
  if (body.type === 'number')
    Object.assign(body, { unit: item.unit ?? '', min: limit(item.min), max: limit(item.max) });
  if (body.type === 'choice')
    body.options = (item.options ?? []).map((option) => option.trim()).filter((option) => option !== '');
  return body;
}
