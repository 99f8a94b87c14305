import { type OutboxEntry } from './outbox-store';

/**
 * The outbox as the page shows it: each entry's state by its clientActivityID, for the statuses under the
 * transcript's activities (React's useSyncExternalStore subscribes here) and the pending count.
 */
export class OutboxView {
  private entries = new Map<string, OutboxEntry>();
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(entries: readonly OutboxEntry[]): void {
    this.entries = new Map(entries.map((entry) => [entry.clientActivityID, entry]));
    for (const listener of this.listeners) listener();
  }

  get(clientActivityID: string | undefined): OutboxEntry | undefined {
    return clientActivityID === undefined ? undefined : this.entries.get(clientActivityID);
  }

  get pending(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.state === 'pending') count += 1;
    return count;
  }

  get failed(): number {
    return this.entries.size - this.pending;
  }
}
