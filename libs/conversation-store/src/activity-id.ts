/**
 * Activity ids of a conversation's log: `{conversationId}|{seq padded to 7 digits}`. The store mints them when it
 * appends (so an id names its log entry), and `/v3` routes that take an activity id parse them back here.
 */
const ACTIVITY_ID = /^(.*)\|(\d{7,})$/;

/** `{conversationId}|{seq padded to 7 digits}`. */
export function activityIdFor(conversationId: string, seq: number): string {
  return `${conversationId}|${String(seq).padStart(7, '0')}`;
}

/**
 * The conversation and seq an activity id names, or undefined when it is not an id the store minted (no `|`, fewer
 * than 7 digits, or extra leading zeros). The conversation id is everything before the last `|`.
 */
export function parseActivityId(activityId: string): { conversationId: string; seq: number } | undefined {
  const match = ACTIVITY_ID.exec(activityId);
  if (!match) return undefined;
  const conversationId = match[1];
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(seq) || activityIdFor(conversationId, seq) !== activityId) return undefined;
  return { conversationId, seq };
}
