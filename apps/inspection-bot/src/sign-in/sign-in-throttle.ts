import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';

const WINDOW_SECONDS = 15 * 60;

/** The (account, address) pair's key; user names are compared case-insensitively. */
const pairOf = (username: string, address: string): string => `${address}|${username.toLowerCase()}`;

function secondsOf(refusal: unknown): number {
  return refusal instanceof RateLimiterRes ? Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) : 60;
}

/**
 * Brute-force protection of the chat page (rate-limiter-flexible, in this process: one bot instance): sign-in
 * attempts per client address and per (account, address) — the user name case-insensitive — in a 15-minute window,
 * counted up front (so parallel guesses cannot slip past the limit). Only a refused password counts: a sign-in that
 * succeeded, or that inspection-api could not check (unreachable, 5xx, throttled), gives its points back, and a
 * successful one clears its pair. No count is kept per account alone, so nobody can lock an account out from
 * addresses its owner does not use; inspection-api slows a user name down that fails from many addresses (its
 * growing delay). And the Direct Line tokens one session may obtain per minute.
 */
@Injectable()
export class SignInThrottle {
  private readonly perAccount: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;
  private readonly tokensPerSession: RateLimiterMemory;

  constructor(environment: InspectionBotEnvironment) {
    this.perAccount = new RateLimiterMemory({
      keyPrefix: 'sign-in-account',
      points: environment.INSPECTION_BOT_SIGN_IN_ATTEMPTS_PER_ACCOUNT,
      duration: WINDOW_SECONDS,
    });
    this.perAddress = new RateLimiterMemory({
      keyPrefix: 'sign-in-address',
      points: environment.INSPECTION_BOT_SIGN_IN_ATTEMPTS_PER_ADDRESS,
      duration: WINDOW_SECONDS,
    });
    this.tokensPerSession = new RateLimiterMemory({
      keyPrefix: 'directline-token',
      points: environment.INSPECTION_BOT_TOKENS_PER_SESSION_MINUTE,
      duration: 60,
    });
  }

  /** Counts a sign-in attempt; the seconds to wait when the address or the (account, address) is over its limit. */
  async attempt(username: string, address: string): Promise<number | undefined> {
    try {
      await this.perAddress.consume(address);
    } catch (refusal) {
      return secondsOf(refusal);
    }
    try {
      await this.perAccount.consume(pairOf(username, address));
    } catch (refusal) {
      return secondsOf(refusal);
    }
    return undefined;
  }

  /** The password could not be checked (inspection-api unreachable, failing or throttling): the points go back. */
  async notCounted(username: string, address: string): Promise<void> {
    await Promise.all([this.perAddress.reward(address), this.perAccount.reward(pairOf(username, address))]);
  }

  /** A successful sign-in: its pair starts afresh and the attempt does not count against the address. */
  async succeeded(username: string, address: string): Promise<void> {
    await Promise.all([this.perAddress.reward(address), this.perAccount.delete(pairOf(username, address))]);
  }

  /** Counts a token request of a session; the seconds to wait when over the limit. */
  async token(sid: string): Promise<number | undefined> {
    try {
      await this.tokensPerSession.consume(sid);
      return undefined;
    } catch (refusal) {
      return secondsOf(refusal);
    }
  }
}
