/** inspection-api answered with a 4xx: the request was refused; `reasons` are DRF's errors in plain sentences. */
export class InspectionApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reasons: string[],
    /** The parsed error body (DRF's JSON), when there was one. */
    readonly body?: unknown,
  ) {
    super(`inspection-api refused the request (${status}): ${reasons.join(' ')}`);
    this.name = 'InspectionApiRefusal';
  }
}

/**
 * The record a conditional create (`if_unanswered_since`) was refused for: inspection-api's 409
 * `{"code":"already_answered","record":{…}}` (docs/protocols/inspection-api.md, "First answer wins"); undefined for
 * any other error.
 */
export function alreadyAnsweredRecord(error: unknown): AnsweredRecord | undefined {
  if (!(error instanceof InspectionApiRefusal) || error.status !== 409) return undefined;
  const body = error.body as { code?: unknown; record?: unknown } | undefined;
  if (body?.code !== 'already_answered' || !body.record || typeof body.record !== 'object') return undefined;
  const record = body.record as Partial<AnsweredRecord>;
  return typeof record.id === 'number' &&
    typeof record.status === 'string' &&
    typeof record.checked_at === 'string' &&
    typeof record.checked_by === 'string'
    ? (record as AnsweredRecord)
    : undefined;
}

/** What the bot reads of the record a 409 `already_answered` carries. */
export interface AnsweredRecord {
  id: number;
  status: 'ok' | 'warn' | 'fail';
  checked_at: string;
  checked_by: string;
  photo: string | null;
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
