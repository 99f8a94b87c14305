import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KeyRing, signJwt, TokenVerificationError, verifyJwt } from '@fieldops/auth';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type BotConfig } from '@fieldops/platform-config';
import { badArgument, tokenExpired } from '@fieldops/contracts';
import { type DirectLineTokenClaims } from './credentials';
import { PLATFORM_CONFIG, type PlatformConfig } from './relay-settings';

const ISSUER = 'fieldops-relay';
export const STREAM_TOKEN_LIFETIME_SECONDS = 60;
/** Tokens whose verification is remembered (a client sends the same token with every request). */
const VERIFIED_CACHE_SIZE = 10_000;

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

export interface VerifiedToken {
  claims: DirectLineTokenClaims;
  /** Epoch seconds. */
  expiresAt: number;
}

/**
 * A conversation token's lifetime: `lifetimeSeconds`, cut so that it ends by `until` (epoch seconds) when the token
 * has a ceiling (tokens/generate's `refreshableUntil`), so no refresh outlives it; at least 1 s.
 */
export function lifetimeUntil(lifetimeSeconds: number, until: number | undefined): number {
  if (until === undefined) return lifetimeSeconds;
  return Math.max(1, Math.min(lifetimeSeconds, until - Math.floor(Date.now() / 1000)));
}

/** Signs and verifies Direct Line tokens (HS256 JWTs over the configured key ring). */
@Injectable()
export class TokenIssuer {
  private readonly keyRing: KeyRing;
  /**
   * Tokens verified before, until they expire: a verification is an HMAC and a JSON parse per request, and a
   * client sends the same token for its whole lifetime. Signing keys are fixed for the process's life, so a token
   * once valid stays valid until its `exp`. Bounded; the oldest entry goes first.
   */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig, @Inject(LOGGER) logger: Logger) {
    let secrets = [...config.relay.tokenSigningKeys];
    if (secrets.length === 0) {
      logger.warn(
        'relay.tokenSigningKeys is not configured: tokens are signed with a random key of this process only',
      );
      secrets = [randomBytes(32).toString('base64url')];
    }
    // The key id derives from the key, so every instance (and a reordered list) names a key the same way.
    this.keyRing = new KeyRing(
      secrets.map((secret) => ({
        kid: createHash('sha256').update(secret).digest('base64url').slice(0, 12),
        algorithm: 'HS256',
        secret,
      })),
    );
  }

  issue(claims: DirectLineTokenClaims, lifetimeSeconds: number): IssuedToken {
    const payload: Record<string, unknown> = { ...claims };
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    return {
      token: signJwt(this.keyRing, payload, {
        expiresInSeconds: lifetimeSeconds,
        issuer: ISSUER,
        audience: ISSUER,
        notBeforeSeconds: 0,
        // Unique per issue, so a refresh within the same second still yields a new token.
        jwtId: randomUUID(),
      }),
      expiresIn: lifetimeSeconds,
    };
  }

  issueConversationToken(
    bot: BotConfig,
    conversationId: string,
    user: { userId?: string; userName?: string; origins?: string[]; until?: number; join?: string } = {},
    lifetimeSeconds?: number,
  ): IssuedToken {
    const lifetime = lifetimeSeconds ?? bot.directLine?.tokenLifetimeSeconds ?? 3600;
    return this.issue(
      {
        bot: bot.id,
        site: bot.id,
        conv: conversationId,
        scope: 'conversation',
        user: user.userId,
        name: user.userName,
        origins: user.origins && user.origins.length > 0 ? user.origins : undefined,
        until: user.until,
        join: user.join,
      },
      lifetimeUntil(lifetime, user.until),
    );
  }

  /** The streamUrl's token; it carries the conversation token's origins, checked against the upgrade's `Origin`. */
  issueStreamToken(bot: BotConfig, conversationId: string, origins: readonly string[] = []): string {
    return this.issue(
      {
        bot: bot.id,
        site: bot.id,
        conv: conversationId,
        scope: 'stream',
        origins: origins.length > 0 ? [...origins] : undefined,
      },
      STREAM_TOKEN_LIFETIME_SECONDS,
    ).token;
  }

  /** Verifies; throws 403 TokenExpired for an expired token and 403 BadArgument for anything else wrong. */
  verify(token: string): VerifiedToken {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now() / 1000) return known;
      this.verified.delete(token);
    }
    const verified = this.verifyUncached(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, verified);
    return verified;
  }

  private verifyUncached(token: string): VerifiedToken {
    try {
      const payload = verifyJwt(this.keyRing, token, { issuer: ISSUER, audience: ISSUER });
      const claims = payload as unknown as DirectLineTokenClaims;
      if (typeof claims.conv !== 'string' || typeof claims.bot !== 'string') {
        throw new TokenVerificationError('invalid', 'token lacks its conversation');
      }
      return { claims, expiresAt: payload.exp ?? 0 };
    } catch (error) {
      if (error instanceof TokenVerificationError && error.reason === 'expired') {
        throw tokenExpired();
      }
      throw badArgument('Invalid token or secret', 403);
    }
  }
}
