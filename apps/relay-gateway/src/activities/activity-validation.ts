import {
  type Activity,
  badArgument,
  badSyntax,
  messageSizeTooBig,
  missingProperty,
} from '@fieldops/contracts';

/** Checks a client activity: a JSON object within the size limit, with `type` and `from.id`. */
export function validateClientActivity(body: unknown, maxBytes: number): Activity {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badSyntax('The body must be an activity (a JSON object)');
  }
  if (Buffer.byteLength(JSON.stringify(body)) > maxBytes) {
    throw messageSizeTooBig(`The activity exceeds the limit of ${maxBytes} bytes`);
  }
  const activity = body as Activity;
  if (typeof activity.type !== 'string' || activity.type.trim() === '') {
    throw missingProperty('The activity needs a type');
  }
  if (activity.type === 'conversationUpdate') {
    throw badArgument('Clients cannot send conversationUpdate activities');
  }
  const from = activity.from as unknown;
  if (typeof from !== 'object' || from === null || typeof (from as { id?: unknown }).id !== 'string') {
    throw missingProperty('The activity needs from.id');
  }
  return activity;
}
