import { type FieldSpec } from './serializer';

/**
 * DRF's SimpleMetadata (rest_framework/metadata.py) for the OPTIONS answers: `actions.POST` on list views and
 * `actions.PUT` on detail views describe each serializer field with `type`, `required`, `read_only`, `label`
 * and, where they apply, `max_length` and `choices`. Labels are Django's `capfirst(verbose_name)`, i.e. the
 * field name with underscores as spaces (`ID` for the primary key).
 */
export interface FieldInfo {
  type: string;
  required: boolean;
  read_only: boolean;
  label?: string;
  max_length?: number;
  choices?: Array<{ value: string; display_name: string }>;
  child?: FieldInfo;
  children?: SerializerInfo;
}

export type SerializerInfo = Record<string, FieldInfo>;

/** Django's default verbose name, capitalised: `checked_by` → `Checked by`. */
export function fieldLabel(name: string): string {
  if (name === 'id') return 'ID';
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The display name of a TextChoices member whose label was left to Django (`name.replace('_', ' ').title()`):
 * `ok` → `Ok`, `in_progress` → `In Progress`.
 */
const choiceLabel = (value: string): string =>
  value
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

const TYPE_OF: Record<FieldSpec['kind'], string> = {
  char: 'string',
  choice: 'choice',
  bool: 'boolean',
  pk: 'field', // PrimaryKeyRelatedField: SimpleMetadata's fallback label, and no choices for related fields
  pks: 'field', // ManyRelatedField
  date: 'date',
};

/** A writable field, described from the validation spec the views use. */
export function writableFieldInfo(spec: FieldSpec): FieldInfo {
  const required = spec.kind === 'bool' ? false : spec.required;
  const info: FieldInfo = {
    type: TYPE_OF[spec.kind],
    required,
    read_only: false,
    label: fieldLabel(spec.name),
  };
  if (spec.kind === 'char' && spec.maxLength !== undefined) info.max_length = spec.maxLength;
  if (spec.kind === 'choice')
    info.choices = spec.choices.map((value) => ({ value, display_name: choiceLabel(value) }));
  return info;
}

/** A read-only field (`id`, timestamps, nested read-only serializers). */
export function readOnlyFieldInfo(name: string, type: string, extra: Partial<FieldInfo> = {}): FieldInfo {
  return { type, required: false, read_only: true, label: fieldLabel(name), ...extra };
}

/** A model file field (FileField / ImageField, Django's default max_length 100), written through multipart. */
export function fileFieldInfo(name: string, type: 'file upload' | 'image upload'): FieldInfo {
  return { type, required: false, read_only: false, label: fieldLabel(name), max_length: 100 };
}

/**
 * A serializer's fields in output order: each entry is either a field name of `specs` (a writable field)
 * or a ready [name, info] pair.
 */
export function serializerInfo(
  specs: readonly FieldSpec[],
  order: ReadonlyArray<string | readonly [string, FieldInfo]>,
): SerializerInfo {
  const info: SerializerInfo = {};
  for (const entry of order) {
    if (typeof entry !== 'string') {
      info[entry[0]] = entry[1];
      continue;
    }
    const spec = specs.find((candidate) => candidate.name === entry);
    if (!spec) throw new Error(`serializerInfo: no field spec named ${entry}`);
    info[entry] = writableFieldInfo(spec);
  }
  return info;
}

/** The `id` field every model serializer starts with. */
export const ID_FIELD = ['id', readOnlyFieldInfo('id', 'integer')] as const;
