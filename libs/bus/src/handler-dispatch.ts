import { type ActivityEnvelope } from '@fieldops/contracts';
import { type ActivityEnvelopeHandler } from './activity-bus';
import { type ActivityBusLogger } from './activity-bus-logger';

/** Told about every exception a handler throws (or promise it rejects) while receiving an envelope. */
export type HandlerErrorReporter = (error: unknown, envelope: ActivityEnvelope) => void;

/** One `subscribe()` call's handler; `active` turns false on unsubscribe so in-flight dispatch skips it. */
export interface HandlerRegistration {
  readonly handler: ActivityEnvelopeHandler;
  active: boolean;
}

/**
 * Calls each still-active handler with the envelope. A handler that throws or returns a rejecting promise
 * is reported and does not stop the others.
 */
export function dispatchToHandlers(
  registrations: Iterable<HandlerRegistration>,
  envelope: ActivityEnvelope,
  reportError: HandlerErrorReporter,
): void {
  for (const registration of [...registrations]) {
    if (!registration.active) continue;
    try {
      const result: unknown = registration.handler(envelope);
      if (isPromiseLike(result)) {
        result.then(undefined, (error: unknown) => reportSafely(reportError, error, envelope));
      }
    } catch (error) {
      reportSafely(reportError, error, envelope);
    }
  }
}

/** The default reporter: log through the bus logger when there is one. */
export function logHandlerError(logger: ActivityBusLogger | undefined): HandlerErrorReporter {
  return (error, envelope) =>
    logger?.error(
      {
        err: error,
        conversationId: envelope.conversationId,
        seq: envelope.seq,
        correlationId: envelope.correlationId,
      },
      'Activity bus handler failed; other handlers still received the envelope',
    );
}

function reportSafely(reportError: HandlerErrorReporter, error: unknown, envelope: ActivityEnvelope): void {
  try {
    reportError(error, envelope);
  } catch {
    // A failing error reporter must not break delivery to the remaining handlers.
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
