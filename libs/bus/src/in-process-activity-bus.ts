import { type ActivityEnvelope } from '@fieldops/contracts';
import { type ActivityBus, type ActivityEnvelopeHandler, type BusSubscription } from './activity-bus';
import { type ActivityBusLogger } from './activity-bus-logger';
import { assertActivityEnvelope, assertConversationId } from './activity-envelope-codec';
import { deepFreeze } from './deep-freeze';
import {
  dispatchToHandlers,
  type HandlerErrorReporter,
  type HandlerRegistration,
  logHandlerError,
} from './handler-dispatch';

export interface InProcessActivityBusOptions {
  /** Receives handler errors when no `onHandlerError` is given. */
  logger?: ActivityBusLogger;
  /** Called for each handler that throws; defaults to logging through `logger`. */
  onHandlerError?: HandlerErrorReporter;
}

/**
 * Single-process bus (development, tests, the all-in-one launcher). Behaves like the Redis bus: envelopes are
 * checked at publish time and delivered on a later turn of the event loop, in publish order; an envelope is frozen
 * (all the way down) when published instead of copied, so neither the publisher nor a subscriber can change what
 * the others see.
 */
export class InProcessActivityBus implements ActivityBus {
  readonly kind = 'in-process' as const;

  private readonly registrationsByConversation = new Map<string, Set<HandlerRegistration>>();
  private queuedEnvelopes: ActivityEnvelope[] = [];
  private deliveryScheduled = false;
  private closed = false;
  private readonly reportHandlerError: HandlerErrorReporter;

  constructor(options: InProcessActivityBusOptions = {}) {
    this.reportHandlerError = options.onHandlerError ?? logHandlerError(options.logger);
  }

  publish(envelope: ActivityEnvelope): Promise<void> {
    try {
      this.assertOpen();
      assertActivityEnvelope(envelope);
      this.queuedEnvelopes.push(deepFreeze(envelope));
      this.scheduleDelivery();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** In one process nothing is ever cut off: the listener is never called. */
  onResubscribed(_listener: () => void): () => void {
    return () => undefined;
  }

  subscribe(conversationId: string, handler: ActivityEnvelopeHandler): Promise<BusSubscription> {
    try {
      this.assertOpen();
      assertConversationId(conversationId);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const registration: HandlerRegistration = { handler, active: true };
    let registrations = this.registrationsByConversation.get(conversationId);
    if (!registrations) {
      registrations = new Set();
      this.registrationsByConversation.set(conversationId, registrations);
    }
    registrations.add(registration);
    return Promise.resolve({
      unsubscribe: () => {
        this.removeRegistration(conversationId, registration);
        return Promise.resolve();
      },
    });
  }

  checkReady(): Promise<void> {
    return this.closed ? Promise.reject(new Error('In-process activity bus is closed')) : Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    this.queuedEnvelopes = [];
    for (const registrations of this.registrationsByConversation.values()) {
      for (const registration of registrations) registration.active = false;
    }
    this.registrationsByConversation.clear();
    return Promise.resolve();
  }

  private scheduleDelivery(): void {
    if (this.deliveryScheduled) return;
    this.deliveryScheduled = true;
    setImmediate(() => this.deliverQueued());
  }

  private deliverQueued(): void {
    this.deliveryScheduled = false;
    const envelopes = this.queuedEnvelopes;
    this.queuedEnvelopes = [];
    for (const envelope of envelopes) {
      if (this.closed) return;
      const registrations = this.registrationsByConversation.get(envelope.conversationId);
      if (registrations) dispatchToHandlers(registrations, envelope, this.reportHandlerError);
    }
  }

  private removeRegistration(conversationId: string, registration: HandlerRegistration): void {
    registration.active = false;
    const registrations = this.registrationsByConversation.get(conversationId);
    if (!registrations) return;
    registrations.delete(registration);
    if (registrations.size === 0) this.registrationsByConversation.delete(conversationId);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('In-process activity bus is closed');
  }
}
