interface ConversationFacts {
  botId: string | undefined;
  claimed: Set<string>;
  until: number;
}

/**
 * What cannot change about a conversation once it has been read from the store — the bot it belongs to, the
 * milestones already claimed — remembered for a while, so a send needs no store round trip for them. An entry lives
 * `ttlMs` (a conversation that expired from the store meanwhile is still refused: its append fails); at most
 * `maxEntries` are kept, the oldest dropped first. Provided with a factory (its parameters are not injected).
 */
export class ConversationFactsCache {
  private readonly entries = new Map<string, ConversationFacts>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The conversation's bot, if it was read recently. */
  botOf(conversationId: string): string | undefined {
    return this.fresh(conversationId)?.botId;
  }

  rememberBot(conversationId: string, botId: string): void {
    this.entry(conversationId).botId = botId;
  }

  /** Whether the milestone is known to be claimed already (claims are never undone). */
  isClaimed(conversationId: string, milestone: string): boolean {
    return this.fresh(conversationId)?.claimed.has(milestone) ?? false;
  }

  rememberClaimed(conversationId: string, milestone: string): void {
    this.entry(conversationId).claimed.add(milestone);
  }

  get size(): number {
    return this.entries.size;
  }

  private fresh(conversationId: string): ConversationFacts | undefined {
    const facts = this.entries.get(conversationId);
    if (facts && facts.until <= this.now()) {
      this.entries.delete(conversationId);
      return undefined;
    }
    return facts;
  }

  private entry(conversationId: string): ConversationFacts {
    let facts = this.fresh(conversationId);
    if (!facts) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      facts = { botId: undefined, claimed: new Set(), until: this.now() + this.ttlMs };
      this.entries.set(conversationId, facts);
    }
    return facts;
  }
}
