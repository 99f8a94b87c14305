/** inspection-api answered with a 4xx: the request was refused; `reasons` are DRF's errors in plain sentences. */
export class InspectionApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reasons: string[],
  ) {
    super(`inspection-api refused the request (${status}): ${reasons.join(' ')}`);
    this.name = 'InspectionApiRefusal';
  }
}

/** inspection-api could not be reached, or failed (5xx). */
export class InspectionApiUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InspectionApiUnavailable';
  }
}

/** `checked_by` → `Checked by` (Django's default verbose name). */
function fieldLabel(field: string): string {
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function messagesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(messagesOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(messagesOf);
  return [];
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?。]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * DRF error bodies as plain sentences: `{"detail": "…"}` → the detail; `{"value": ["Ensure …"]}` →
 * `Value: Ensure …`; `non_field_errors` without a label; anything else → a generic sentence with the status.
 */
export function plainReasons(status: number, body: unknown): string[] {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const reasons = Object.entries(body as Record<string, unknown>).flatMap(([field, value]) => {
      const messages = messagesOf(value).map(sentence);
      if (field === 'detail' || field === 'non_field_errors') return messages;
      return messages.map((message) => `${fieldLabel(field)}: ${message}`);
    });
    if (reasons.length > 0) return reasons;
  }
  if (Array.isArray(body)) {
    const reasons = messagesOf(body).map(sentence);
    if (reasons.length > 0) return reasons;
  }
  return [`The inspection service answered with status ${status}.`];
}
