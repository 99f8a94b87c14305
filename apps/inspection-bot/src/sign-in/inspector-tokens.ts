import { Injectable } from '@nestjs/common';
import { type AccountTokens, InspectionAccounts } from './inspection-accounts';

/** Renew the access token when it expires within this margin. */
const RENEWAL_MARGIN_SECONDS = 60;

/**
 * The signed-in inspectors' own inspection-api tokens, by user id, for the dialog: a check record is made with the
 * token of the person behind the chat, so inspection-api itself sets `checked_by` from it (docs/decisions/
 * people-sign-in.md). Filled by the chat page's sessions at every use (sign-in, page load, Direct Line token),
 * renewed with the session's refresh token when due, dropped at sign-out or when inspection-api refuses to renew.
 * In this process's memory, like the conversations' state: after a restart, a person's next page request brings
 * the tokens back.
 */
@Injectable()
export class InspectorTokens {
  private readonly byUser = new Map<number, AccountTokens>();
  /** People whose session in this process ended (signed out, or renewal refused) and who have not come back. */
  private readonly ended = new Set<number>();

  constructor(private readonly accounts: InspectionAccounts) {}

  /** The tokens of a live chat session (the latest session of the person wins). */
  remember(account: AccountTokens): void {
    if (this.byUser.size >= 10_000 && !this.byUser.has(account.userId)) this.byUser.clear();
    this.byUser.set(account.userId, account);
    this.ended.delete(account.userId);
  }

  /** A session signed out: its tokens go (another session of the person brings its own at its next request). */
  forget(account: AccountTokens): void {
    if (this.byUser.get(account.userId)?.refresh !== account.refresh) return;
    this.byUser.delete(account.userId);
    if (this.ended.size >= 10_000) this.ended.clear();
    this.ended.add(account.userId);
  }

  /**
   * How a record of the person is written: their current access token (renewed when due); `ended` when their
   * session ended in this process (signed out, or its renewal refused); `unknown` when this process holds no session
   * of theirs — after a restart, or on another bot instance than the one serving their page — until their page's
   * next request brings the tokens back.
   */
  async writerOf(userId: number): Promise<{ accessToken: string } | 'ended' | 'unknown'> {
    const accessToken = await this.accessTokenOf(userId);
    if (accessToken !== undefined) return { accessToken };
    return this.ended.has(userId) ? 'ended' : 'unknown';
  }

  /** The person's current access token, renewed when due; undefined when there is none or it cannot be renewed. */
  async accessTokenOf(userId: number): Promise<string | undefined> {
    const account = this.byUser.get(userId);
    if (!account) return undefined;
    if (account.accessExpiresAt - RENEWAL_MARGIN_SECONDS > Date.now() / 1000) return account.access;
    const renewed = await this.accounts.renew(account);
    if (!renewed) {
      this.forget(account);
      return undefined;
    }
    this.byUser.set(userId, renewed);
    return renewed.access;
  }
}
