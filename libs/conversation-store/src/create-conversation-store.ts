import { parseRedisUrl } from '@fieldops/redis-connection';
import { type ConversationStore } from './conversation-store';
import { InProcessConversationStore } from './in-process-conversation-store';
import { RedisConversationStore } from './redis-conversation-store';

export interface CreateConversationStoreOptions {
  /** When set (non-blank), the store lives in Redis; otherwise in this process. */
  redisUrl?: string;
  keyPrefix?: string;
  retentionSeconds?: number;
  /** Replicas that must hold an append before it is acknowledged; default {@link defaultReplicaAcks}. */
  replicaAcks?: number;
  replicaAckTimeoutMs?: number;
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
      replicaAcks: options.replicaAcks ?? defaultReplicaAcks(redisUrl),
      replicaAckTimeoutMs: options.replicaAckTimeoutMs,
    });
  }
  return new InProcessConversationStore({
    retentionSeconds: options.retentionSeconds,
    maxUploadBytes: options.maxUploadBytes,
  });
}

/**
 * Replicas an append waits for unless configured: 1 where the URL names replicated Redis (Sentinel, Cluster), so a
 * failover cannot take back an acknowledged activity; 0 for a single server, which has no replica to promote.
 */
export function defaultReplicaAcks(redisUrl: string): number {
  return parseRedisUrl(redisUrl).kind === 'single' ? 0 : 1;
}
