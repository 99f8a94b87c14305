/** An object's own properties keyed by lower-cased name (clients send camelCase or PascalCase); {} for non-objects. */
export function lowerKeys(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key.toLowerCase(), entry]));
}
