import { Injectable } from '@nestjs/common';
import { messageSizeTooBig, tooManyRequests } from '@fieldops/contracts';
import { type RateLimit, RateLimitStore } from '@fieldops/rate-limits';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';

/** What one upload request carries. */
export interface UploadSize {
  bytes: number;
  files: number;
}

/**
 * Upload quotas: bytes and files per window, per conversation and per token (or secret), counted in the relay's
 * {@link RateLimitStore} — Redis when REDIS_URL is set, so every relay instance counts together. Over a quota: 429
 * `TooManyRequests` with `Retry-After`; an upload larger than a whole window's quota: 413 `MessageSizeTooBig`.
 */
@Injectable()
export class UploadQuota {
  private readonly limits: Array<{ limit: RateLimit; of: 'bytes' | 'files'; per: 'conversation' | 'token' }>;

  constructor(store: RateLimitStore, environment: RelayGatewayEnvironment) {
    const windowSeconds = environment.RELAY_UPLOAD_QUOTA_WINDOW_SECONDS;
    const rule = (name: string, points: number) => store.limit({ name, points, windowSeconds });
    this.limits = [
      {
        limit: rule('upload-bytes-conversation', environment.RELAY_UPLOAD_BYTES_PER_CONVERSATION),
        of: 'bytes',
        per: 'conversation',
      },
      {
        limit: rule('upload-files-conversation', environment.RELAY_UPLOAD_FILES_PER_CONVERSATION),
        of: 'files',
        per: 'conversation',
      },
      {
        limit: rule('upload-bytes-token', environment.RELAY_UPLOAD_BYTES_PER_TOKEN),
        of: 'bytes',
        per: 'token',
      },
      {
        limit: rule('upload-files-token', environment.RELAY_UPLOAD_FILES_PER_TOKEN),
        of: 'files',
        per: 'token',
      },
    ];
  }

  /** Before the body is read: 429 when a quota of this conversation or credential is already used up. */
  async assertOpen(credential: Credential, conversationId: string): Promise<void> {
    for (const { limit, per } of this.limits) {
      const state = await limit.check(per === 'conversation' ? conversationId : credential.key);
      if (!state.allowed) throw exhausted(per, state.retryAfterSeconds);
    }
  }

  /** Counts a parsed upload against every quota; refuses it (nothing is stored then) when one is exceeded. */
  async take(credential: Credential, conversationId: string, size: UploadSize): Promise<void> {
    for (const { limit, of, per } of this.limits) {
      if (limit.rule.points > 0 && size[of] > limit.rule.points)
        throw messageSizeTooBig(
          `The upload's ${of} (${size[of]}) exceed the ${per}'s quota of ${limit.rule.points} per ${limit.rule.windowSeconds} s`,
        );
    }
    const states = await Promise.all(
      this.limits
        .filter(({ of }) => size[of] > 0)
        .map(({ limit, of, per }) =>
          limit
            .consume(per === 'conversation' ? conversationId : credential.key, size[of])
            .then((state) => ({ state, per })),
        ),
    );
    const refused = states.filter(({ state }) => !state.allowed);
    if (refused.length > 0)
      throw exhausted(refused[0].per, Math.max(...refused.map(({ state }) => state.retryAfterSeconds)));
  }
}

function exhausted(per: 'conversation' | 'token', retryAfterSeconds: number): Error {
  return tooManyRequests(
    `The upload quota of this ${per === 'conversation' ? 'conversation' : 'token'} is used up`,
    retryAfterSeconds,
  );
}
