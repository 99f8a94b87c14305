import { type Activity } from './page-direct-line';

const SEEN = 'fieldops.chat.seen';
/** How many conversations the browser remembers a "last seen" for (the oldest are forgotten). */
const KEPT = 20;

/** An activity's conversation and its place in it, from the chat service's id (`<conversation>|0000012`). */
function position(activity: Activity): { conversationId: string; seq: number } | undefined {
  const id = activity.id ?? '';
  const bar = id.lastIndexOf('|');
  const seq = Number(id.slice(bar + 1));
  return bar > 0 && Number.isInteger(seq) ? { conversationId: id.slice(0, bar), seq } : undefined;
}

/** A proactive card of the bot (a reminder or an alert, `channelData.notification`): what "new" counts. */
function isNotification(activity: Activity): boolean {
  return (
    activity.type === 'message' &&
    activity.from?.role === 'bot' &&
    typeof activity.channelData?.notification === 'object' &&
    activity.channelData.notification !== null
  );
}

/**
 * What arrived in the conversation since the person last saw it: the bot's proactive cards (reminders, alerts) after
 * the last activity this browser showed while the page was in view ("last seen", per conversation, in
 * localStorage). Without a "last seen" (the conversation's first opening in this browser), the cards after the
 * person's own last message count. The count and the first new card are shown until the person does something
 * in the chat; whatever the page shows in view counts as seen at once, so the next opening does not show it again.
 */
export class UnseenActivities {
  private conversationId: string | undefined;
  /** "Last seen" when the conversation was opened (the stored one, or the person's own last activity). */
  private baseline: number | undefined;
  private stored = false;
  private newest = 0;
  private unseen: Array<{ id: string; seq: number }> = [];
  private cleared = false;
  private readonly listeners = new Set<() => void>();

  constructor() {
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.markSeen();
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** How many are shown as new (0: no marker). */
  get count(): number {
    return this.cleared ? 0 : this.unseen.length;
  }

  /** The activity the "N new" line stands above. */
  get firstId(): string | undefined {
    return this.cleared ? undefined : this.unseen[0]?.id;
  }

  /** A chat (re)started: what it receives is measured against its conversation's "last seen". */
  reset(): void {
    this.conversationId = undefined;
    this.baseline = undefined;
    this.stored = false;
    this.newest = 0;
    this.unseen = [];
    this.cleared = false;
    this.changed();
  }

  received(activity: Activity): void {
    const at = position(activity);
    if (!at) return;
    if (at.conversationId !== this.conversationId) {
      this.reset();
      this.conversationId = at.conversationId;
      this.baseline = this.lastSeen()[at.conversationId];
      this.stored = this.baseline !== undefined;
    }
    if (!this.stored && activity.from?.role === 'user') {
      // No "last seen" in this browser: what the person said last is the line.
      this.baseline = Math.max(this.baseline ?? 0, at.seq);
      this.unseen = this.unseen.filter((each) => each.seq > at.seq);
      this.changed();
    }
    if (
      isNotification(activity) &&
      at.seq > (this.baseline ?? 0) &&
      !this.unseen.some((each) => each.seq === at.seq)
    ) {
      this.unseen.push({ id: activity.id ?? '', seq: at.seq });
      this.changed();
    }
    this.newest = Math.max(this.newest, at.seq);
    if (document.visibilityState === 'visible') this.markSeen();
  }

  /** The person acted in the chat (sent something, or opened the new ones): the marker goes. */
  clear(): void {
    if (this.cleared || this.unseen.length === 0) return;
    this.cleared = true;
    this.changed();
  }

  private markSeen(): void {
    if (!this.conversationId || this.newest === 0) return;
    const seen = this.lastSeen();
    if ((seen[this.conversationId] ?? 0) >= this.newest) return;
    delete seen[this.conversationId];
    const kept = Object.entries(seen).slice(-(KEPT - 1));
    try {
      localStorage.setItem(
        SEEN,
        JSON.stringify(Object.fromEntries([...kept, [this.conversationId, this.newest]])),
      );
    } catch {
      // Storage full or refused: the next opening shows these as new again.
    }
  }

  private lastSeen(): Record<string, number> {
    try {
      const value = JSON.parse(localStorage.getItem(SEEN) ?? '{}') as unknown;
      return value && typeof value === 'object' ? (value as Record<string, number>) : {};
    } catch {
      return {};
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
