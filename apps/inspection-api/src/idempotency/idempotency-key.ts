import { createHash } from 'node:crypto';
import { parseItem } from 'structured-headers';
import { DrfException } from '../drf/exceptions';
import { type UploadedPart } from '../drf/request-input';
import { type Input } from '../drf/serializer';

/** The longest key kept (the column's length). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `structured-headers`' item parser (RFC 9651): the bare item first, then its parameters. */
const parseStructuredItem = parseItem as unknown as (input: string) => readonly [unknown, unknown];

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** 400 for a header that is no usable key. */
const invalidKey = (): DrfException =>
  new DrfException(400, {
    detail: `Idempotency-Key must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
  });

/**
 * The client's key from an `Idempotency-Key` header: the IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * makes it a Structured Field string (`"8e03978e-…"`, parsed with `structured-headers`); a header that does not start
 * with a quote is taken as it is (a bare UUID or token, as Stripe-style clients send it). Absent: undefined. Anything
 * else (empty, too long, a broken string, not printable ASCII): 400.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const text = (Array.isArray(header) ? header.join(', ') : header).trim();
  let key: unknown = text;
  if (text.startsWith('"')) {
    try {
      [key] = parseStructuredItem(text);
    } catch {
      throw invalidKey();
    }
  }
  if (
    typeof key !== 'string' ||
    !key ||
    key.length > IDEMPOTENCY_KEY_MAX_LENGTH ||
    !PRINTABLE_ASCII.test(key)
  )
    throw invalidKey();
  return key;
}

/** JSON with object keys sorted, so two equal bodies give one text whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return (value as unknown[]).map(canonical);
  if (value instanceof Map)
    return [...(value as Map<string, unknown>).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/**
 * What makes two requests "the same" for a key: method, path, the parsed input (key order and, for multipart, the
 * boundary do not matter) and each file's content. A SHA-256 hex digest.
 */
export function requestFingerprint(
  method: string,
  path: string,
  input: Input,
  files: ReadonlyMap<string, UploadedPart>,
): string {
  const parts = [...files.values()]
    .map((file) => ({
      field: file.fieldname,
      size: file.size,
      sha256: createHash('sha256').update(file.buffer).digest('hex'),
    }))
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  const text = JSON.stringify({
    method: method.toUpperCase(),
    path,
    kind: input.kind,
    data: canonical(input.data),
    files: parts,
  });
  return createHash('sha256').update(text).digest('hex');
}
