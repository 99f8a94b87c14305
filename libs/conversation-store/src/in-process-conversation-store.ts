import { randomUUID } from 'node:crypto';
import { deepFreeze } from '@fieldops/bus';
import { type Activity } from '@fieldops/contracts';
import {
  type AttachmentMetadata,
  type ConversationMilestone,
  type ConversationRecord,
  type ConversationStore,
  DEFAULT_RETENTION_SECONDS,
  stampActivity,
  type StoredActivity,
  type StoredAttachment,
  UnknownConversationError,
  UploadCapacityError,
} from './conversation-store';

interface ConversationState {
  record: ConversationRecord;
  log: StoredActivity[];
  lastMicros: number;
  milestones: Set<ConversationMilestone>;
  /** The latest join ({@link ConversationStore.claimJoin}). */
  join?: string;
  attachments: Map<string, { attachment: StoredAttachment; data: Buffer }>;
  expiresAt: number;
}

/** Default of `maxUploadBytes`: 256 MiB of uploaded files in one process. */
export const DEFAULT_MAX_UPLOAD_BYTES = 268_435_456;

export interface InProcessConversationStoreOptions {
  retentionSeconds?: number;
  /**
   * The most bytes of uploaded files the process keeps. A new upload that does not fit drops the oldest uploads
   * (of any conversation) until it fits; one larger than the whole capacity is refused (UploadCapacityError).
   */
  maxUploadBytes?: number;
  /** Test seam for retention. */
  now?: () => number;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Single-process store (development, tests, the all-in-one launcher); expired conversations are swept lazily.
 * Uploaded bytes are capped (`maxUploadBytes`): the oldest uploads go first, so memory stays bounded. Entries and
 * records are handed out frozen (deepFreeze) instead of copied on every append and read: nobody can change what is
 * stored (the appended activity is handed over and frozen with its entry).
 */
export class InProcessConversationStore implements ConversationStore {
  readonly kind = 'in-process' as const;
  readonly retentionSeconds: number;
  readonly maxUploadBytes: number;
  private readonly conversations = new Map<string, ConversationState>();
  /** Every stored upload, oldest first: `conversationId` → attachment ids, with their sizes. */
  private readonly uploads = new Map<
    string,
    { conversationId: string; attachmentId: string; size: number }
  >();
  private uploadBytes = 0;
  /** `botId\nuserId` → the home conversation's id and the key's expiry (epoch ms). */
  private readonly homes = new Map<string, { conversationId: string; expiresAt: number }>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(options: InProcessConversationStoreOptions = {}) {
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    this.maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  create(record: ConversationRecord): Promise<boolean> {
    return this.run(() => {
      if (this.live(record.conversationId)) return false;
      this.add(record);
      return true;
    });
  }

  get(conversationId: string): Promise<ConversationRecord | undefined> {
    return this.run(() => {
      const state = this.live(conversationId);
      return state?.record;
    });
  }

  setUserIfUnset(
    conversationId: string,
    user: { userId: string; userName?: string },
  ): Promise<ConversationRecord | undefined> {
    return this.run(() => {
      const state = this.live(conversationId);
      if (!state) return undefined;
      if (state.record.userId === undefined) {
        state.record = deepFreeze({
          ...state.record,
          userId: user.userId,
          ...(user.userName !== undefined ? { userName: user.userName } : {}),
        });
        this.touch(state);
      }
      return state.record;
    });
  }

  homeConversation(candidate: ConversationRecord & { userId: string }): Promise<ConversationRecord> {
    return this.run(() => {
      const key = `${candidate.botId}\n${candidate.userId}`;
      const home = this.homes.get(key);
      const existing = home && home.expiresAt > this.now() ? this.live(home.conversationId) : undefined;
      if (existing) {
        home!.expiresAt = this.expiry();
        return existing.record;
      }
      if (!this.live(candidate.conversationId)) this.add(candidate);
      this.homes.set(key, { conversationId: candidate.conversationId, expiresAt: this.expiry() });
      return this.live(candidate.conversationId)!.record;
    });
  }

  claimMilestone(conversationId: string, milestone: ConversationMilestone): Promise<boolean> {
    return this.run(() => {
      const state = this.required(conversationId);
      if (state.milestones.has(milestone)) return false;
      state.milestones.add(milestone);
      this.touch(state);
      return true;
    });
  }

  claimJoin(conversationId: string, joinId: string): Promise<boolean> {
    return this.run(() => {
      const state = this.required(conversationId);
      this.touch(state);
      if (state.join === joinId) return false;
      state.join = joinId;
      return true;
    });
  }

  append(conversationId: string, activity: Activity): Promise<StoredActivity> {
    return this.run(() => {
      const state = this.required(conversationId);
      const seq = state.log.length;
      const micros = Math.max(this.now() * 1000, state.lastMicros + 1);
      state.lastMicros = micros;
      const stored = deepFreeze({ seq, activity: stampActivity(conversationId, seq, micros, activity) });
      state.log.push(stored);
      this.touch(state);
      return stored;
    });
  }

  read(
    conversationId: string,
    afterSeq?: number,
    limit = Number.MAX_SAFE_INTEGER,
  ): Promise<StoredActivity[]> {
    return this.run(() => {
      const state = this.live(conversationId);
      if (!state) return [];
      const start = afterSeq === undefined ? 0 : Math.max(afterSeq + 1, 0);
      return state.log.slice(start, start + limit);
    });
  }

  lastSeq(conversationId: string): Promise<number | undefined> {
    return this.run(() => {
      const state = this.live(conversationId);
      return state ? state.log.length - 1 : undefined;
    });
  }

  putAttachment(
    conversationId: string,
    metadata: AttachmentMetadata,
    data: Buffer,
  ): Promise<StoredAttachment> {
    return this.run(() => {
      const state = this.required(conversationId);
      if (data.length > this.maxUploadBytes) throw new UploadCapacityError(data.length, this.maxUploadBytes);
      for (const [key, oldest] of this.uploads) {
        if (this.uploadBytes + data.length <= this.maxUploadBytes) break;
        this.conversations.get(oldest.conversationId)?.attachments.delete(oldest.attachmentId);
        this.forgetUpload(key);
      }
      const attachment: StoredAttachment = {
        ...metadata,
        attachmentId: randomUUID(),
        conversationId,
        size: data.length,
        createdAt: this.now(),
      };
      state.attachments.set(attachment.attachmentId, { attachment, data: Buffer.from(data) });
      this.uploads.set(uploadKey(conversationId, attachment.attachmentId), {
        conversationId,
        attachmentId: attachment.attachmentId,
        size: data.length,
      });
      this.uploadBytes += data.length;
      this.touch(state);
      return clone(attachment);
    });
  }

  deleteAttachment(conversationId: string, attachmentId: string): Promise<void> {
    return this.run(() => {
      this.conversations.get(conversationId)?.attachments.delete(attachmentId);
      this.forgetUpload(uploadKey(conversationId, attachmentId));
    });
  }

  /** Bytes of uploaded files held now (for tests and metrics). */
  get storedUploadBytes(): number {
    return this.uploadBytes;
  }

  getAttachment(
    conversationId: string,
    attachmentId: string,
  ): Promise<{ attachment: StoredAttachment; data: Buffer } | undefined> {
    return this.run(() => {
      const entry = this.live(conversationId)?.attachments.get(attachmentId);
      return entry ? { attachment: clone(entry.attachment), data: Buffer.from(entry.data) } : undefined;
    });
  }

  checkReady(): Promise<void> {
    return this.run(() => undefined);
  }

  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.conversations.clear();
    this.uploads.clear();
    this.homes.clear();
    this.uploadBytes = 0;
    return Promise.resolve();
  }

  private run<T>(operation: () => T): Promise<T> {
    try {
      if (this.closed) throw new Error('conversation store is closed');
      return Promise.resolve(operation());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private live(conversationId: string): ConversationState | undefined {
    const state = this.conversations.get(conversationId);
    if (state && state.expiresAt <= this.now()) {
      this.conversations.delete(conversationId);
      for (const attachmentId of state.attachments.keys())
        this.forgetUpload(uploadKey(conversationId, attachmentId));
      return undefined;
    }
    return state;
  }

  private forgetUpload(key: string): void {
    const upload = this.uploads.get(key);
    if (!upload) return;
    this.uploads.delete(key);
    this.uploadBytes -= upload.size;
  }

  private required(conversationId: string): ConversationState {
    const state = this.live(conversationId);
    if (!state) throw new UnknownConversationError(conversationId);
    return state;
  }

  private expiry(): number {
    return this.now() + this.retentionSeconds * 1000;
  }

  private touch(state: ConversationState): void {
    state.expiresAt = this.expiry();
  }

  /** A new conversation with an empty log, kept for the retention. */
  private add(record: ConversationRecord): void {
    this.conversations.set(record.conversationId, {
      record: deepFreeze({ ...record }),
      log: [],
      lastMicros: 0,
      milestones: new Set(),
      attachments: new Map(),
      expiresAt: this.expiry(),
    });
  }

  private sweep(): void {
    for (const conversationId of this.conversations.keys()) this.live(conversationId);
    const now = this.now();
    for (const [key, home] of this.homes) if (home.expiresAt <= now) this.homes.delete(key);
  }
}

function uploadKey(conversationId: string, attachmentId: string): string {
  return `${conversationId}\n${attachmentId}`;
}
