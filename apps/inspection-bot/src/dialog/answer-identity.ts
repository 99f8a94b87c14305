import { createHash } from 'node:crypto';

/** What an incoming activity carries that identifies it (Web Chat's `channelData.clientActivityID`, the id). */
export interface ActivityIdentity {
  id?: string;
  from?: { id?: string };
  channelData?: unknown;
}

/** The client's id of an activity: Web Chat's `channelData.clientActivityID` (kept by the page's outbox on resends). */
function clientActivityIdOf(activity: ActivityIdentity): string | undefined {
  const value = (activity.channelData as { clientActivityID?: unknown } | undefined)?.clientActivityID;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const USABLE = /^[\x21-\x7e]{1,255}$/;

/** The key as inspection-api takes it (printable ASCII, at most 255): long or unusual keys as their SHA-256. */
function usableKey(text: string): string {
  return USABLE.test(text) ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * The `Idempotency-Key` of the record an item card's answer makes. One rule for every retry path:
 * - the card's answer id (the `answer` of its ok / warn / fail submit data) when the card has one: a double tap, a
 *   second tap on another status, a Web Chat retry and the page outbox's resend all carry it, so they make one record
 *   (a different status under the same key is inspection-api's 422: "already answered");
 * - otherwise the activity's `channelData.clientActivityID` (Web Chat sets it; the outbox resends with the same one),
 *   falling back to the activity id.
 * Scoped by the sender (`from.id`): the bot writes with one service account for every inspector.
 */
export function recordKeyOf(activity: ActivityIdentity, answerId?: string): string | undefined {
  const origin = answerId ? `card:${answerId}` : activityOrigin(activity);
  return origin && usableKey(`inspection-bot:record:${activity.from?.id ?? ''}:${origin}`);
}

/** The `Idempotency-Key` of a photo upload: the activity's `clientActivityID`, else its id (scoped by sender). */
export function photoKeyOf(activity: ActivityIdentity): string | undefined {
  const origin = activityOrigin(activity);
  return origin && usableKey(`inspection-bot:photo:${activity.from?.id ?? ''}:${origin}`);
}

function activityOrigin(activity: ActivityIdentity): string | undefined {
  const client = clientActivityIdOf(activity);
  if (client) return `client:${client}`;
  return activity.id ? `activity:${activity.id}` : undefined;
}
