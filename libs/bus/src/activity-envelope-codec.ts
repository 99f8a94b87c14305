import { type ActivityEnvelope } from '@fieldops/contracts';

/** Serializes an envelope for the wire after checking its shape. Throws a TypeError for an invalid envelope. */
export function encodeActivityEnvelope(envelope: ActivityEnvelope): string {
  assertActivityEnvelope(envelope);
  return JSON.stringify(envelope);
}

/** Parses a wire message back into an envelope. Throws for invalid JSON or a value that is not an envelope. */
export function decodeActivityEnvelope(message: string): ActivityEnvelope {
  const value: unknown = JSON.parse(message);
  assertActivityEnvelope(value);
  return value;
}

/** Checks the fields every bus consumer relies on; the activity's other fields pass through untouched. */
export function assertActivityEnvelope(value: unknown): asserts value is ActivityEnvelope {
  if (!isPlainObject(value)) {
    throw new TypeError('Activity envelope must be an object');
  }
  if (typeof value['conversationId'] !== 'string' || value['conversationId'] === '') {
    throw new TypeError('Activity envelope needs a non-empty string conversationId');
  }
  if (typeof value['seq'] !== 'number' || !Number.isFinite(value['seq'])) {
    throw new TypeError('Activity envelope needs a finite number seq');
  }
  if (typeof value['correlationId'] !== 'string') {
    throw new TypeError('Activity envelope needs a string correlationId');
  }
  const activity = value['activity'];
  if (!isPlainObject(activity) || typeof activity['type'] !== 'string') {
    throw new TypeError('Activity envelope needs an activity object with a string type');
  }
}

/** Throws a TypeError unless the conversation id is a non-empty string. */
export function assertConversationId(conversationId: unknown): asserts conversationId is string {
  if (typeof conversationId !== 'string' || conversationId === '') {
    throw new TypeError('conversationId must be a non-empty string');
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
