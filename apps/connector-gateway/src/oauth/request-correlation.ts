import { randomUUID } from 'node:crypto';
import { type Request } from 'express';

const CORRELATION_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The caller's `client-request-id` (query, form or header, as msal sends it) when well-formed, else a new one. */
export function correlationIdOf(request: Request): string {
  const body: unknown = request.body;
  const candidates: unknown[] = [
    request.query['client-request-id'],
    typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>)['client-request-id']
      : undefined,
    request.get('client-request-id'),
  ];
  const found = candidates.find(
    (value): value is string => typeof value === 'string' && CORRELATION_ID.test(value),
  );
  return found ?? randomUUID();
}
