import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** How long a started sign-in may take at the provider (the state's life). */
const STATE_SECONDS = 600;
/** How long the one-time code a finished sign-in returns with may wait to be exchanged. */
const CODE_SECONDS = 60;

const digest = (value: string): string => createHash('sha256').update(value).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');

export interface StartedSignIn {
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/**
 * The sign-in's single-use secrets, in PostgreSQL (every replica sees them; stored as SHA-256 digests): the
 * `state` of a sign-in started at the provider (with its nonce, PKCE verifier and return address) and the one-time
 * code a finished sign-in returns with. Taking one deletes it in the same statement, so it works once, on any
 * replica; expired ones are refused and swept when new ones are written.
 */
@Injectable()
export class OidcSignInStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Starts a sign-in: a new state, nonce and PKCE verifier. */
  async start(returnTo: string): Promise<{ state: string } & StartedSignIn> {
    const started = { state: secret(), nonce: secret(), codeVerifier: secret(), returnTo };
    await this.dataSource.query(`DELETE FROM "oidc_sign_in_states" WHERE "expires_at" < now()`);
    await this.dataSource.query(
      `INSERT INTO "oidc_sign_in_states" ("state_digest", "nonce", "code_verifier", "return_to", "expires_at")
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [digest(started.state), started.nonce, started.codeVerifier, returnTo, STATE_SECONDS],
    );
    return started;
  }

  /** The sign-in a state started, once; undefined when unknown, used or expired. */
  async takeState(state: string): Promise<StartedSignIn | undefined> {
    const rows = await this.dataSource.query<
      [Array<{ nonce: string; code_verifier: string; return_to: string; live: boolean }>, number]
    >(
      `DELETE FROM "oidc_sign_in_states" WHERE "state_digest" = $1
       RETURNING "nonce", "code_verifier", "return_to", "expires_at" > now() AS "live"`,
      [digest(state)],
    );
    const row = rows[0]?.[0];
    return row?.live
      ? { nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to }
      : undefined;
  }

  /** A one-time code for the signed-in account. */
  async issueCode(userId: number): Promise<string> {
    const code = secret();
    await this.dataSource.query(`DELETE FROM "oidc_sign_in_codes" WHERE "expires_at" < now()`);
    await this.dataSource.query(
      `INSERT INTO "oidc_sign_in_codes" ("code_digest", "user_id", "expires_at")
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [digest(code), userId, CODE_SECONDS],
    );
    return code;
  }

  /** The account a one-time code was issued for, once; undefined when unknown, used or expired. */
  async takeCode(code: string): Promise<number | undefined> {
    const rows = await this.dataSource.query<[Array<{ user_id: number; live: boolean }>, number]>(
      `DELETE FROM "oidc_sign_in_codes" WHERE "code_digest" = $1
       RETURNING "user_id", "expires_at" > now() AS "live"`,
      [digest(code)],
    );
    const row = rows[0]?.[0];
    return row?.live ? row.user_id : undefined;
  }
}
