import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** An activity as the page posts it (Web Chat's outgoing activity; attachments' bytes kept beside it). */
export interface OutgoingActivity {
  type: string;
  text?: string;
  value?: unknown;
  name?: string;
  attachments?: Array<{ contentType?: string; contentUrl?: string; name?: string; thumbnailUrl?: string }>;
  channelData: { clientActivityID: string; [key: string]: unknown };
  from: { id: string; name?: string; role?: string };
  timestamp?: string;
  [key: string]: unknown;
}

export interface OutboxFile {
  name: string;
  contentType: string;
  blob: Blob;
}

/** One answer, photo or message waiting on the device until the relay has taken it. */
export interface OutboxEntry {
  /** Web Chat's `channelData.clientActivityID`: the answer's identity, resent unchanged (the bot's Idempotency-Key). */
  clientActivityID: string;
  /** Sending order. */
  seq: number;
  /** The Direct Line user (`dl_<account id>`) it belongs to: only that account's session sends it. */
  userId: string;
  activity: OutgoingActivity;
  files: OutboxFile[];
  /** `failed`: refused for good (the reason says why); sent again only when the user taps Retry. */
  state: 'pending' | 'failed';
  reason?: string;
  /** false: a Retry cannot work (a photo too large): the page offers Remove instead. */
  retryable?: boolean;
}

/** A conversation's transcript as last seen, for a reload (offline too) to show it again. */
export interface TranscriptEntry {
  conversationId: string;
  userId: string;
  activities: unknown[];
  watermark?: string;
}

interface PageDatabase extends DBSchema {
  outbox: { key: string; value: OutboxEntry; indexes: { seq: number } };
  transcripts: { key: string; value: TranscriptEntry };
}

const TRANSCRIPT_LIMIT = 300;

/** The page's IndexedDB database (the `idb` wrapper): the outbox and the transcripts. */
export class PageDatabaseStore {
  private database: Promise<IDBPDatabase<PageDatabase>> | undefined;

  private open(): Promise<IDBPDatabase<PageDatabase>> {
    this.database ??= openDB<PageDatabase>('fieldops-chat-page', 1, {
      upgrade(database) {
        database.createObjectStore('outbox', { keyPath: 'clientActivityID' }).createIndex('seq', 'seq');
        database.createObjectStore('transcripts', { keyPath: 'conversationId' });
      },
    });
    return this.database;
  }

  async put(entry: OutboxEntry): Promise<void> {
    await (await this.open()).put('outbox', entry);
  }

  async delete(clientActivityID: string): Promise<void> {
    await (await this.open()).delete('outbox', clientActivityID);
  }

  async get(clientActivityID: string): Promise<OutboxEntry | undefined> {
    return (await this.open()).get('outbox', clientActivityID);
  }

  /** A user's entries in sending order. */
  async entries(userId: string): Promise<OutboxEntry[]> {
    const all = await (await this.open()).getAllFromIndex('outbox', 'seq');
    return all.filter((entry) => entry.userId === userId);
  }

  async transcript(conversationId: string): Promise<TranscriptEntry | undefined> {
    return (await this.open()).get('transcripts', conversationId);
  }

  async saveTranscript(entry: TranscriptEntry): Promise<void> {
    await (
      await this.open()
    ).put('transcripts', {
      ...entry,
      activities: entry.activities.slice(-TRANSCRIPT_LIMIT),
    });
  }

  /** Sign-out: the transcripts go; the outbox stays (it is sent after the same account signs in again). */
  async clearTranscripts(): Promise<void> {
    await (await this.open()).clear('transcripts');
  }
}
