import { type Activity } from '@fieldops/contracts';
import { activityIdFor } from './activity-id';
import { isoTimestampFromMicros } from './activity-timestamp';

/** What the store knows about a conversation besides its log. */
export interface ConversationRecord {
  conversationId: string;
  /** The bot (platform configuration id) the conversation belongs to. */
  botId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The user, when known (embedded in the token, or given at start). */
  userId?: string;
  userName?: string;
  locale?: string;
}

/** A one-time milestone of a conversation, claimed atomically by whichever instance gets there first. */
export type ConversationMilestone = 'started' | 'userJoined';

/** One entry of a conversation's log. `seq` is the Direct Line watermark; `activity.id` = `{conversationId}|{seq7}`. */
export interface StoredActivity {
  seq: number;
  activity: Activity;
}

export interface AttachmentMetadata {
  contentType: string;
  name?: string;
}

export interface StoredAttachment extends AttachmentMetadata {
  attachmentId: string;
  conversationId: string;
  size: number;
  /** Epoch milliseconds. */
  createdAt: number;
}

/**
 * Shared state of every conversation: metadata, a sequence counter and the append-only activity log (the source
 * of truth; the bus only wakes readers up), and uploaded attachments. Everything expires `retentionSeconds` after
 * the conversation's last write. Implementations: Redis (any number of instances) and in-process (one process).
 */
export interface ConversationStore {
  readonly kind: 'redis' | 'in-process';
  readonly retentionSeconds: number;

  /** Creates the conversation; resolves false (and changes nothing) when it already exists. */
  create(record: ConversationRecord): Promise<boolean>;

  get(conversationId: string): Promise<ConversationRecord | undefined>;

  /** Sets the user of an existing conversation unless one is set; resolves the record as stored afterwards. */
  setUserIfUnset(
    conversationId: string,
    user: { userId: string; userName?: string },
  ): Promise<ConversationRecord | undefined>;

  /**
   * The user's home conversation with the bot (as Teams keeps one 1:1 chat per bot and user): the live conversation
   * the (bot, user) key names, or else `candidate`, created and named by the key (also when the one it named has
   * expired). One per (bot, user) whatever the callers, processes and replicas; the key lasts `retentionSeconds`
   * after its last use.
   */
  homeConversation(candidate: ConversationRecord & { userId: string }): Promise<ConversationRecord>;

  /** Resolves true for exactly one caller per conversation and milestone. */
  claimMilestone(conversationId: string, milestone: ConversationMilestone): Promise<boolean>;

  /**
   * Records `joinId` (a client's opening of a conversation it keeps returning to, e.g. one sign-in in a home
   * conversation) as the conversation's latest join: true when it was not the latest already, false when it was (the
   * same opening again: a retried start). One value per conversation, so it never grows. Rejects for an unknown
   * conversation.
   */
  claimJoin(conversationId: string, joinId: string): Promise<boolean>;

  /**
   * Appends atomically: takes the next sequence number (0, 1, 2 …) and a timestamp strictly later than the
   * previous entry's, and stores `{...activity, id, timestamp}`; a given `id`/`timestamp` is replaced. Once it
   * resolves, every lower sequence number is readable too. Rejects for an unknown conversation. (On Redis with
   * replicas to wait for, an append they never confirmed is voided: its seq is skipped, never reused.)
   */
  append(conversationId: string, activity: Activity): Promise<StoredActivity>;

  /** Entries with `seq > afterSeq` (all when undefined), oldest first, at most `limit` of them. */
  read(conversationId: string, afterSeq?: number, limit?: number): Promise<StoredActivity[]>;

  /** The last sequence number taken, -1 for an empty log, undefined for an unknown conversation. */
  lastSeq(conversationId: string): Promise<number | undefined>;

  putAttachment(
    conversationId: string,
    metadata: AttachmentMetadata,
    data: Buffer,
  ): Promise<StoredAttachment>;

  getAttachment(
    conversationId: string,
    attachmentId: string,
  ): Promise<{ attachment: StoredAttachment; data: Buffer } | undefined>;

  /** Removes an attachment (e.g. of a send that was refused after its files were stored); no-op when absent. */
  deleteAttachment(conversationId: string, attachmentId: string): Promise<void>;

  /** Resolves when the store can serve; rejects saying why (readiness probes). */
  checkReady(): Promise<void>;

  /** Releases connections. Idempotent. */
  close(): Promise<void>;
}

export const CONVERSATION_STORE = Symbol('CONVERSATION_STORE');

export const DEFAULT_RETENTION_SECONDS = 24 * 60 * 60;

/** The activity as stored: the caller's, with the store's id and timestamp. */
export function stampActivity(
  conversationId: string,
  seq: number,
  micros: number,
  activity: Activity,
): Activity {
  return { ...activity, id: activityIdFor(conversationId, seq), timestamp: isoTimestampFromMicros(micros) };
}

/** An attachment larger than the in-process store's whole upload capacity (`STORE_MAX_UPLOAD_BYTES`). */
export class UploadCapacityError extends Error {
  constructor(
    readonly size: number,
    readonly capacity: number,
  ) {
    super(`an upload of ${size} bytes exceeds the store's upload capacity of ${capacity} bytes`);
    this.name = 'UploadCapacityError';
  }
}

export class UnknownConversationError extends Error {
  constructor(readonly conversationId: string) {
    super(`unknown conversation ${conversationId}`);
    this.name = 'UnknownConversationError';
  }
}
