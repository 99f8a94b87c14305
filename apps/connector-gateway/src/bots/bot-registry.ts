import { verify as verifyArgon2 } from '@node-rs/argon2';
import {
  type BotCertificate,
  type BotRegistration,
  digestsEqual,
  passwordDigest,
  type RegisteredBot,
  validateRegisteredBots,
} from './registered-bot';

/** How a client assertion names the certificate that signed it. */
export interface CertificateReference {
  x5t?: string;
  x5tS256?: string;
}

/**
 * The bots registered on this platform. Abstract so that the source (a list today, the shared platform
 * configuration file at integration) can change without touching its users.
 */
export abstract class BotRegistry {
  /** The registration of `appId`, or undefined. App ids are compared exactly (botbuilder does too). */
  abstract find(appId: string): BotRegistration | undefined;

  abstract all(): readonly BotRegistration[];

  /** The registration whose platform id (the conversation store's `botId`) is `id`, or undefined. */
  abstract findById(id: string): BotRegistration | undefined;

  /** The bot whose own identity header (`identityHeader`) is `header`, or undefined. */
  abstract findByIdentityHeader(header: string): BotRegistration | undefined;

  /** Whether `password` is the bot's app password (argon2 or constant-time comparison). False without one. */
  abstract verifyAppPassword(bot: BotRegistration, password: string): Promise<boolean>;

  /** The registered certificate an assertion names by `x5t` or `x5t#S256`. */
  abstract findCertificate(bot: BotRegistration, reference: CertificateReference): BotCertificate | undefined;
}

/** A registry built from a validated list of RegisteredBot (see `validateRegisteredBots`). */
export class InMemoryBotRegistry extends BotRegistry {
  private readonly bots: readonly BotRegistration[];
  /** Bots with an app id (an anonymous bot may have none: it is found by its platform id only). */
  private readonly byAppId: Map<string, BotRegistration>;

  constructor(bots: readonly RegisteredBot[]) {
    super();
    this.bots = validateRegisteredBots(bots);
    this.byAppId = new Map(this.bots.filter((bot) => bot.appId !== '').map((bot) => [bot.appId, bot]));
  }

  find(appId: string): BotRegistration | undefined {
    return this.byAppId.get(appId);
  }

  all(): readonly BotRegistration[] {
    return this.bots;
  }

  findById(id: string): BotRegistration | undefined {
    return this.bots.find((bot) => bot.id === id);
  }

  findByIdentityHeader(header: string): BotRegistration | undefined {
    const digest = passwordDigest(header);
    // Every bot is compared (constant time each), so the answer's timing does not tell which one matched.
    let found: BotRegistration | undefined;
    for (const bot of this.bots) {
      if (bot.identityHeaderDigest && digestsEqual(bot.identityHeaderDigest, digest)) found = bot;
    }
    return found;
  }

  async verifyAppPassword(bot: BotRegistration, password: string): Promise<boolean> {
    const stored = bot.password;
    if (!stored) return false;
    if (stored.kind === 'plain') return digestsEqual(stored.digest, passwordDigest(password));
    try {
      return await verifyArgon2(stored.hash, password);
    } catch {
      return false;
    }
  }

  findCertificate(bot: BotRegistration, reference: CertificateReference): BotCertificate | undefined {
    return bot.certificates.find(
      (certificate) =>
        (reference.x5tS256 !== undefined && certificate.x5tS256 === reference.x5tS256) ||
        (reference.x5t !== undefined && certificate.x5t === reference.x5t),
    );
  }
}
