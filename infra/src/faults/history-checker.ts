/**
 * The checker of the fault harness (`infra/test/faults`): from the history a run recorded — every send's outcome, every
 * activity each client received, the conversation logs read back at the end and the HTTP statuses the entrances
 * answered — the violations of what the platform promises across faults (docs/failover.md):
 *
 * - `lost`: an acknowledged send whose id is not in the log, or names another text there (the id was reused);
 * - `id-reused`: one id acknowledged, or logged, for two activities;
 * - `not-delivered`: a log entry an open client never received (its stream skipped one);
 * - `delivered-twice`: an id a client received more than once;
 * - `out-of-order`: a client received a seq not above the one before (its watermark went back);
 * - `phantom`: a client received an id the log does not hold (a write a failover took back);
 * - `unknown-twice`: a send with an unknown outcome (no id, or 5xx) stored more than once;
 * - `server-error`: any 5xx answer other than 503 (with `Retry-After`, the one answer a fault may cause), on any
 *   entrance, during a fault or not: a dependency that is away is a 503, never a 500, 502 or 504.
 */

/** An activity as a client or the log holds it. */
export interface HistoryActivity {
  id: string;
  /** What the checker matches sends by (each send's text is unique in a run). */
  text?: string;
}

export interface ClientHistory {
  name: string;
  /** Everything the client's stream delivered, in order. */
  received: HistoryActivity[];
  /** Sends acknowledged with an id: id → text. */
  acknowledged: Map<string, string>;
  /** Sends with an unknown outcome (DirectLineJS "retry": a 5xx, a timeout, a dropped connection): their texts. */
  unknown: string[];
  /** Whether its stream was still open at the end (an ended stream owes nothing after its end). */
  open: boolean;
}

export interface ConversationHistory {
  conversationId: string;
  /** The log read back at the end (polling, every page), in seq order. */
  log: HistoryActivity[];
  clients: ClientHistory[];
}

export interface StatusCount {
  status: number;
  count: number;
  /** A few of these answers (time, method, path, upstream), named in the violation. */
  examples?: string[];
}

export interface Violation {
  kind:
    | 'lost'
    | 'id-reused'
    | 'not-delivered'
    | 'delivered-twice'
    | 'out-of-order'
    | 'phantom'
    | 'unknown-twice'
    | 'server-error';
  conversationId?: string;
  client?: string;
  detail: string;
}

export interface CheckResult {
  violations: Violation[];
  counts: {
    conversations: number;
    clients: number;
    logActivities: number;
    acknowledged: number;
    unknownOutcomes: number;
    unknownOutcomesStored: number;
    activitiesReceived: number;
    statuses: Record<string, number>;
  };
}

/** The seq in a stamped id (`…|0000042` → 42). */
export function sequenceOfId(id: string): number {
  const match = /\|(\d+)$/.exec(id);
  if (!match) throw new Error(`activity id without a sequence: ${id}`);
  return Number(match[1]);
}

/** The one 5xx a fault may cause: 503 Service Unavailable (with Retry-After). */
const FAULT_STATUS = 503;

export function checkHistory(
  conversations: ConversationHistory[],
  statuses: StatusCount[] = [],
): CheckResult {
  const violations: Violation[] = [];
  const counts: CheckResult['counts'] = {
    conversations: conversations.length,
    clients: 0,
    logActivities: 0,
    acknowledged: 0,
    unknownOutcomes: 0,
    unknownOutcomesStored: 0,
    activitiesReceived: 0,
    statuses: {},
  };
  for (const { status, count, examples = [] } of statuses) {
    counts.statuses[String(status)] = (counts.statuses[String(status)] ?? 0) + count;
    if (status >= 500 && status !== FAULT_STATUS) {
      const named = examples.length > 0 ? `: ${examples.slice(0, 5).join('; ')}` : '';
      violations.push({ kind: 'server-error', detail: `${count} answer(s) with status ${status}${named}` });
    }
  }
  for (const conversation of conversations) {
    const { conversationId, log } = conversation;
    const violation = (kind: Violation['kind'], detail: string, client?: string) =>
      violations.push({ kind, conversationId, detail, ...(client === undefined ? {} : { client }) });
    counts.logActivities += log.length;
    const logText = new Map<string, string | undefined>();
    for (const entry of log) {
      if (logText.has(entry.id)) violation('id-reused', `${entry.id} appears twice in the log`);
      logText.set(entry.id, entry.text);
    }
    const logIds = log.map((entry) => entry.id);
    const acknowledgedText = new Map<string, string>();
    for (const client of conversation.clients) {
      counts.clients += 1;
      counts.acknowledged += client.acknowledged.size;
      counts.unknownOutcomes += client.unknown.length;
      counts.activitiesReceived += client.received.length;
      for (const [id, text] of client.acknowledged) {
        const earlier = acknowledgedText.get(id);
        if (earlier !== undefined && earlier !== text) {
          violation('id-reused', `${id} acknowledged for "${earlier}" and "${text}"`, client.name);
        }
        acknowledgedText.set(id, text);
        if (!logText.has(id))
          violation('lost', `acknowledged ${id} ("${text}") is not in the log`, client.name);
        else if (logText.get(id) !== text) {
          violation(
            'lost',
            `acknowledged ${id} ("${text}") names "${logText.get(id)}" in the log`,
            client.name,
          );
        }
      }
      for (const text of client.unknown) {
        const stored = log.filter((entry) => entry.text === text).length;
        if (stored > 0) counts.unknownOutcomesStored += 1;
        if (stored > 1)
          violation('unknown-twice', `"${text}" (outcome unknown) stored ${stored} times`, client.name);
      }
      const seen = new Set<string>();
      let previous = -1;
      for (const activity of client.received) {
        if (seen.has(activity.id)) violation('delivered-twice', `${activity.id} received twice`, client.name);
        seen.add(activity.id);
        const seq = sequenceOfId(activity.id);
        if (seq <= previous) violation('out-of-order', `seq ${seq} received after ${previous}`, client.name);
        previous = Math.max(previous, seq);
        if (!logText.has(activity.id))
          violation('phantom', `${activity.id} received but not in the log`, client.name);
        else if (logText.get(activity.id) !== activity.text) {
          violation(
            'phantom',
            `${activity.id} received as "${activity.text}", logged as another`,
            client.name,
          );
        }
      }
      if (client.open) {
        const missing = logIds.filter((id) => !seen.has(id));
        if (missing.length > 0) {
          violation(
            'not-delivered',
            `${missing.length} log entries never received: ${missing.slice(0, 5).join(', ')}`,
            client.name,
          );
        }
      }
    }
  }
  return { violations, counts };
}
