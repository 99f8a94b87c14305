import { type JsonWebKey } from 'node:crypto';
import { type KeyRing } from '@fieldops/auth';

export interface PublishedJwk extends JsonWebKey {
  kid: string;
  x5t: string;
  use: 'sig';
  endorsements?: string[];
}

/**
 * The ring's public keys (including keys published ahead of use and retired keys still verifying),
 * each with `x5t` = `kid` (what the token headers carry) and, for the bot-facing set, the channel ids
 * botbuilder checks against `activity.channelId`.
 */
export function publishedJwks(keyRing: KeyRing, endorsements?: readonly string[]): { keys: PublishedJwk[] } {
  return {
    keys: keyRing.publicJwks().keys.map((key) => {
      const kid = String(key.kid);
      const published: PublishedJwk = { ...key, kid, x5t: kid, use: 'sig' };
      if (endorsements) published.endorsements = [...endorsements];
      return published;
    }),
  };
}
