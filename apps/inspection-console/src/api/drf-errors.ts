/**
 * DRF error bodies: `{"detail": "..."}` for everything but validation, and for validation an object of field →
 * list of messages (nested objects / arrays for nested fields, `non_field_errors` for the whole body).
 */

/** The field errors of a DRF validation body in the form's shape (`{code: "…", check_items: {0: {name: "…"}}}`). */
export function drfFieldErrors(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'detail' in body) return undefined;
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      if (value.every((entry) => typeof entry === 'string')) return value.join(' ');
      return Object.fromEntries(
        value.map((entry, index) => [String(index), convert(entry)]).filter(([, e]) => e),
      );
    }
    if (value && typeof value === 'object') {
      const entries = Object.entries(value).map(([key, entry]) => [key, convert(entry)] as const);
      const kept = entries.filter(([, entry]) => entry !== '' && entry !== undefined);
      return kept.length ? Object.fromEntries(kept) : undefined;
    }
    return typeof value === 'string' ? value : undefined;
  };
  const errors = convert(body);
  return errors && typeof errors === 'object' ? (errors as Record<string, unknown>) : undefined;
}

/** One line for a notification: the `detail`, the body-wide errors, or a generic line with the status. */
export function drfErrorMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === 'string') return record.detail;
    const nonField = record.non_field_errors;
    if (Array.isArray(nonField)) return nonField.join(' ');
    if (Object.keys(record).length) return 'ra.message.invalid_form';
  }
  return status >= 500 ? 'console.errors.server' : `HTTP ${status}`;
}
