import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/*
 * Token revocation, the one owner of its rules:
 * - per user, `users.tokens_valid_after`: a token (access or refresh) whose `iat` is before it is refused. A JWT's
 *   `iat` is in whole seconds, so a revocation takes effect from the next whole second (every token of the current
 *   second is refused too), and a login right after one waits for that second before it signs (at most a second).
 * - per refresh token, `token_blacklist` (simplejwt's blacklist app): `POST /api/token/blacklist/` signs one session
 *   out; its `jti` is refused by `POST /api/token/refresh/` until the token would have expired anyway.
 */

/** SQL: the instant a revocation made now takes effect (the next whole second). */
export const REVOKED_FROM_NOW_SQL = `date_trunc('second', now()) + interval '1 second'`;

/** The epoch second from which a user's tokens are valid again (undefined: never revoked). */
export function validFromSecond(tokensValidAfter: Date | null | undefined): number | undefined {
  return tokensValidAfter ? Math.ceil(tokensValidAfter.getTime() / 1000) : undefined;
}

/** Whether a token issued at `iat` (epoch seconds) is revoked by a `tokens_valid_after` of `validFrom`. */
export function issuedBeforeRevocation(iat: unknown, validFrom: number | undefined): boolean {
  if (validFrom === undefined) return false;
  return typeof iat !== 'number' || iat < validFrom;
}

/** Waits until tokens signed now are valid (a login within the second of a revocation), at most a second. */
export async function untilValid(validFrom: number | undefined): Promise<void> {
  if (validFrom === undefined) return;
  const wait = validFrom * 1000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1000)));
}

/** The refresh tokens signed out one by one (`token_blacklist`). */
@Injectable()
export class TokenBlacklist {
  constructor(private readonly dataSource: DataSource) {}

  /** Blacklists a refresh token's id until its expiry; expired entries are dropped on the way. */
  async add(jti: string, userId: number | undefined, expiresAt: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM "token_blacklist" WHERE "expires_at" < now()`);
    await this.dataSource.query(
      `INSERT INTO "token_blacklist" ("jti", "user_id", "expires_at")
       SELECT $1, (SELECT "id" FROM "users" WHERE "id" = $2), to_timestamp($3)
       ON CONFLICT ("jti") DO NOTHING`,
      [jti, userId ?? null, expiresAt],
    );
  }

  async has(jti: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM "token_blacklist" WHERE "jti" = $1`, [
      jti,
    ]);
    return rows.length > 0;
  }
}
