import { Transform } from 'class-transformer';

/** Parses an integer environment variable; leaves garbage in place so validation reports it. */
export function ToInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    return /^-?\d+$/.test(value.trim()) ? Number.parseInt(value, 10) : value;
  });
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** Parses a boolean environment variable (1/0, true/false, yes/no, on/off). */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const normalised = value.trim().toLowerCase();
    if (TRUE.has(normalised)) return true;
    if (FALSE.has(normalised)) return false;
    return value;
  });
}
