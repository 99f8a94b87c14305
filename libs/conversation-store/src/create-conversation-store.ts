import { type ConversationStore } from './conversation-store';
import { InProcessConversationStore } from './in-process-conversation-store';
import { RedisConversationStore } from './redis-conversation-store';

export interface CreateConversationStoreOptions {
  /** When set (non-blank), the store lives in Redis; otherwise in this process. */
  redisUrl?: string;
  keyPrefix?: string;
  retentionSeconds?: number;
  /** The in-process store's cap on uploaded bytes (see InProcessConversationStoreOptions). */
  maxUploadBytes?: number;
}

export function createConversationStore(options: CreateConversationStoreOptions = {}): ConversationStore {
  const redisUrl = options.redisUrl?.trim();
  if (redisUrl) {
    return new RedisConversationStore({
      redisUrl,
      keyPrefix: options.keyPrefix,
      retentionSeconds: options.retentionSeconds,
    });
  }
  return new InProcessConversationStore({
    retentionSeconds: options.retentionSeconds,
    maxUploadBytes: options.maxUploadBytes,
  });
}
