import { createDirectLine } from 'botframework-webchat';
import { BehaviorSubject, Observable, ReplaySubject, type Subscription } from 'rxjs';
import {
  type OutboxEntry,
  type OutboxFile,
  type OutgoingActivity,
  type PageDatabaseStore,
} from './outbox-store';
import { type DirectLineSession } from './page-api';
import { type ShrinkResult, shrinkPhoto } from './photo-shrink';

/** Direct Line's connection states (botframework-directlinejs `ConnectionStatus`). */
export const ConnectionStatus = {
  Uninitialized: 0,
  Connecting: 1,
  Online: 2,
  ExpiredToken: 3,
  FailedToConnect: 4,
  Ended: 5,
} as const;

/** What the page shows on its status line about the link to the chat service. */
export type LinkState = 'connecting' | 'online' | 'reconnecting' | 'offline' | 'failed' | 'signed-out';

export interface Activity {
  id?: string;
  type: string;
  from: { id: string; name?: string; role?: string };
  channelData?: { clientActivityID?: string; [key: string]: unknown };
  attachments?: Array<{ contentType?: string; contentUrl?: string; name?: string; thumbnailUrl?: string }>;
  timestamp?: string;
  value?: unknown;
  [key: string]: unknown;
}

/** The conversation a tab is in, kept for the session (localStorage) so a reload rejoins it. */
export interface RememberedConversation {
  userId: string;
  userName: string;
  conversationId: string;
  token: string;
  domain: string;
  watermark?: string;
}

/** Why an answer was refused for good, for the page to put into words. */
export type RefusalReason =
  | { kind: 'too-large'; bytes: number; limitBytes: number | undefined }
  | { kind: 'not-a-photo' }
  | { kind: 'refused'; status: number; code: string | undefined };

export interface PageDirectLineOptions {
  userId: string;
  userName: string;
  locale: string;
  store: PageDatabaseStore;
  /** The conversation to rejoin (a reload), if any. */
  remembered: RememberedConversation | undefined;
  /**
   * The page's token route: a token for the remembered conversation (refreshed) or a new one. `signed-out` when
   * the session is over; throws when the network is down.
   */
  token(conversation: RememberedConversation | undefined): Promise<DirectLineSession | 'signed-out'>;
  remember(conversation: RememberedConversation): void;
  onLink(state: LinkState): void;
  onOutbox(entries: readonly OutboxEntry[]): void;
  /** A photo too large (or not a photo) to send: a reason a person understands. */
  describe(reason: RefusalReason): string;
  /** Photo settings: keep the camera's metadata (GPS …) or not. */
  keepPhotoMetadata: boolean;
}

const RETRY_MS = 5_000;
const LOCAL_ID = 'local:';

interface InnerDirectLine {
  activity$: {
    subscribe(observer: { next(activity: Activity): void; error?(error: unknown): void }): Subscription;
  };
  connectionStatus$: { subscribe(next: (status: number) => void): Subscription };
  end(): void;
}

/** Private fields of botframework-directlinejs read after the fact: its current token and watermark. */
interface InnerState {
  token?: string;
  watermark?: string;
  conversationId?: string;
}

/**
 * A bot's updateActivity as the chat service delivers it (Direct Line has no update of its own): a `messageUpdate`
 * whose `replyToId` names the updated activity. Web Chat replaces an activity when another arrives with the same
 * `id` and places it by `timestamp`, so the update is handed on as the updated message under the original's id,
 * time and `replyToId`: an answered card shows its answer in its place and its buttons are gone.
 */
export function appliedUpdate(activity: Activity, transcript: readonly Activity[]): Activity {
  const updated = activity.replyToId;
  if (activity.type !== 'messageUpdate' || typeof updated !== 'string') return activity;
  const original = transcript.find((kept) => kept.id === updated);
  const replaced: Activity = {
    ...activity,
    type: 'message',
    id: updated,
    timestamp: original?.timestamp ?? activity.timestamp,
  };
  if (original?.replyToId === undefined) delete replaced.replyToId;
  else replaced.replyToId = original.replyToId;
  return replaced;
}

/**
 * An item card's answer id (the `answer` of its ok / warn / fail submit data, one per card) when the activity is
 * such an answer.
 */
export function cardAnswerId(activity: Pick<Activity, 'value'>): string | undefined {
  const value = activity.value as { action?: unknown; answer?: unknown; again?: unknown } | null | undefined;
  if (value?.action !== 'record' || typeof value.answer !== 'string' || value.answer === '') return undefined;
  // "Record … as well" (the item was already answered in the period) is a second, confirmed answer of the card:
  // its own identity here, so the page lets it through once.
  return value.again === true ? `${value.answer}:again` : value.answer;
}

function withoutLocalFields(activity: Activity): Activity {
  const channelData = { ...activity.channelData };
  delete channelData.state;
  delete channelData['webchat:send-status'];
  const copy: Activity = { ...activity, channelData };
  delete copy.id;
  return copy;
}

/**
 * The Direct Line connection Web Chat is given: botframework-directlinejs underneath for receiving (WebSocket,
 * reconnects), and an outbox on the device for everything the user sends. Each posted activity is stored in
 * IndexedDB first (its photos' bytes with it) and echoed locally at once, then sent in order, with its Web Chat
 * `clientActivityID` unchanged, whenever the link is up — after a reload, a closed tab or a new sign-in too.
 * Web Chat sees a conversation that stays online; the real state goes to the page's status line.
 */
export class PageDirectLine {
  private readonly status = new BehaviorSubject<number>(ConnectionStatus.Uninitialized);
  readonly connectionStatus$: Observable<number>;
  readonly activity$: Observable<Activity>;
  /** Every activity Web Chat is given, replayed to each of its subscriptions (it subscribes more than once). */
  private readonly incoming = new ReplaySubject<Activity>();
  private started = false;
  private conversation: RememberedConversation | undefined;
  private inner: InnerDirectLine | undefined;
  private innerSubscriptions: Subscription[] = [];
  private transcript: Activity[] = [];
  private entries: OutboxEntry[] = [];
  private flushing = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private ended = false;
  private innerOnline = false;
  private wasOnline = false;
  /** A send found the chat service unreachable (the socket may not have noticed yet): shown as reconnecting. */
  private unreachable = false;
  private readonly objectUrls: string[] = [];
  /** The answer ids of the cards answered on this device (in the outbox, sent, or in the kept transcript). */
  private readonly answers = new Set<string>();
  private seq = Date.now() * 1000;
  private readonly onOnline = (): void => this.goOnline();
  private readonly onOffline = (): void => this.link();

  get userId(): string {
    return this.options.userId;
  }

  constructor(private readonly options: PageDirectLineOptions) {
    this.conversation = options.remembered;
    this.activity$ = new Observable<Activity>((subscriber) => {
      const subscription = this.incoming.subscribe(subscriber);
      this.start();
      return () => subscription.unsubscribe();
    });
    this.connectionStatus$ = new Observable<number>((subscriber) => {
      const subscription = this.status.subscribe(subscriber);
      this.start();
      return () => subscription.unsubscribe();
    });
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.status.next(ConnectionStatus.Connecting);
    void this.replay().then(() => {
      // Web Chat posts only while connected: it is, as far as it knows, even without a network.
      this.status.next(ConnectionStatus.Online);
      this.goOnline();
    });
  }

  /** The kept transcript of the remembered conversation, then the outbox's entries as local echoes. */
  private async replay(): Promise<void> {
    this.entries = await this.options.store.entries(this.options.userId).catch(() => []);
    this.options.onOutbox(this.entries);
    if (this.conversation) {
      const kept = await this.options.store
        .transcript(this.conversation.conversationId)
        .catch(() => undefined);
      if (kept && kept.userId === this.options.userId) {
        this.transcript = kept.activities as Activity[];
        // Rejoin from the watermark saved with this transcript: the remembered one is written at once on each
        // activity, the transcript a moment later, so after a reload in between the remembered watermark is ahead
        // of it and what lies between (an answered card's update) would never be fetched again.
        this.conversation = { ...this.conversation, watermark: kept.watermark };
      }
    }
    for (const activity of this.transcript) this.noteAnswer(activity);
    for (const entry of this.entries) this.noteAnswer(entry.activity);
    for (const activity of this.transcript) this.incoming.next(activity);
    for (const entry of this.entries) this.incoming.next(this.localEcho(entry));
  }

  private noteAnswer(activity: Activity): void {
    const answerId = activity.from?.role === 'bot' ? undefined : cardAnswerId(activity);
    if (answerId !== undefined) this.answers.add(answerId);
  }

  /**
   * Whether Web Chat may post this activity: false for a second answer to an item card this device has already
   * answered (a double tap, or a tap on the card before the bot's update has replaced it, offline too). The first
   * answer stands; the bot's Idempotency-Key makes any answer that still gets through one record.
   */
  takesAnswer(activity: Pick<Activity, 'value'>): boolean {
    const answerId = cardAnswerId(activity);
    if (answerId === undefined) return true;
    if (this.answers.has(answerId)) return false;
    this.answers.add(answerId);
    return true;
  }

  private localEcho(entry: OutboxEntry): Activity {
    // A file refused before sending (it could not be made small enough, or is no picture) shows as a file, not as
    // a picture that may not draw.
    const refused = entry.state === 'failed' && entry.retryable === false;
    const attachments = entry.files.map((file) => {
      const url = URL.createObjectURL(file.blob);
      this.objectUrls.push(url);
      return refused
        ? { contentType: 'application/octet-stream', contentUrl: url, name: file.name }
        : { contentType: file.contentType, contentUrl: url, name: file.name, thumbnailUrl: url };
    });
    return {
      ...(entry.activity as Activity),
      ...(attachments.length ? { attachments } : {}),
      id: `${LOCAL_ID}${entry.clientActivityID}`,
      timestamp: entry.activity.timestamp ?? new Date().toISOString(),
    };
  }

  /** Web Chat's post: into the outbox (durably), echoed locally; sent when the link allows. */
  postActivity(activity: Activity): Observable<string> {
    return new Observable<string>((subscriber) => {
      this.enqueue(activity).then(
        (id) => {
          subscriber.next(id);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
    });
  }

  private async enqueue(posted: Activity): Promise<string> {
    const activity = withoutLocalFields(posted);
    const clientActivityID = activity.channelData?.clientActivityID ?? crypto.randomUUID();
    activity.channelData = { ...activity.channelData, clientActivityID };
    activity.timestamp = new Date().toISOString();
    const files: OutboxFile[] = [];
    let refusal: RefusalReason | undefined;
    for (const attachment of activity.attachments ?? []) {
      if (!attachment.contentUrl) continue;
      const blob = await (await fetch(attachment.contentUrl)).blob();
      const shrunk: ShrinkResult = await shrinkPhoto(blob, attachment.name ?? 'photo', {
        keepMetadata: this.options.keepPhotoMetadata,
      });
      files.push({
        name: shrunk.name,
        contentType: shrunk.blob.type || 'application/octet-stream',
        blob: shrunk.blob,
      });
      if (shrunk.refusal) refusal = shrunk.refusal;
    }
    delete activity.attachments;
    const entry: OutboxEntry = {
      clientActivityID,
      seq: (this.seq = Math.max(this.seq + 1, Date.now() * 1000)),
      userId: this.options.userId,
      activity: activity as OutgoingActivity,
      files,
      state: refusal ? 'failed' : 'pending',
      ...(refusal ? { reason: this.options.describe(refusal), retryable: false } : {}),
    };
    await this.options.store.put(entry);
    this.entries = [...this.entries.filter((each) => each.clientActivityID !== clientActivityID), entry];
    this.options.onOutbox(this.entries);
    const echo = this.localEcho(entry);
    // The echo after the post resolves, as from a service: Web Chat expects the post first.
    setTimeout(() => this.incoming.next(echo), 0);
    this.flushSoon();
    return echo.id ?? clientActivityID;
  }

  /** Tapping Retry on a failed entry: pending again, sent in its place in the order. */
  async retry(clientActivityID: string): Promise<void> {
    const entry = this.entries.find((each) => each.clientActivityID === clientActivityID);
    if (!entry) return;
    const again: OutboxEntry = { ...entry, state: 'pending' };
    delete again.reason;
    delete again.retryable;
    await this.options.store.put(again);
    this.entries = this.entries.map((each) => (each === entry ? again : each));
    this.options.onOutbox(this.entries);
    this.flushSoon();
  }

  /** Removing a refused entry (a photo that cannot be sent). */
  async discard(clientActivityID: string): Promise<void> {
    const removed = this.entries.find((each) => each.clientActivityID === clientActivityID);
    const answerId = removed && cardAnswerId(removed.activity);
    if (answerId !== undefined) this.answers.delete(answerId);
    await this.options.store.delete(clientActivityID);
    this.entries = this.entries.filter((each) => each.clientActivityID !== clientActivityID);
    this.options.onOutbox(this.entries);
  }

  private link(): void {
    if (this.ended) return;
    if (!navigator.onLine) this.options.onLink('offline');
    else if (this.innerOnline && !this.unreachable) this.options.onLink('online');
    // Once the chat has been online, a lost link is "reconnecting", also while a new token is being fetched.
    else this.options.onLink(this.inner || this.wasOnline ? 'reconnecting' : 'connecting');
  }

  /**
   * Joins (or rejoins) the conversation when there is a network: a token from the page's route, then the socket.
   * Back online with the socket down, it rejoins at once rather than after botframework-directlinejs's own backoff
   * (3–15 s, then 20 s between attempts), so the bot's replies to what the outbox sends show without delay.
   */
  private goOnline(): void {
    if (this.ended) return;
    this.link();
    if (this.inner && this.innerOnline) {
      this.flushSoon();
      return;
    }
    this.rejoinNow();
  }

  /** A new socket for the conversation now (the token renewed through the page's route; a new one if it expired). */
  private rejoinNow(): void {
    if (this.ended) return;
    this.dropInner();
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    void this.connect();
  }

  private connecting = false;

  private async connect(): Promise<void> {
    if (this.connecting || this.ended) return;
    this.connecting = true;
    try {
      const session = await this.options.token(this.conversation);
      if (this.ended) return;
      if (session === 'signed-out') {
        this.options.onLink('signed-out');
        return;
      }
      const rejoin = this.conversation?.conversationId === session.conversationId;
      if (!rejoin) this.transcript = [];
      this.conversation = {
        userId: this.options.userId,
        userName: this.options.userName,
        conversationId: session.conversationId,
        token: session.token,
        domain: session.domain,
        watermark: rejoin ? this.conversation?.watermark : undefined,
      };
      this.options.remember(this.conversation);
      this.startInner(rejoin);
    } catch {
      this.link();
      this.scheduleRetry();
    } finally {
      this.connecting = false;
    }
  }

  private startInner(rejoin: boolean): void {
    const conversation = this.conversation;
    if (!conversation) return;
    const inner = createDirectLine({
      token: conversation.token,
      domain: conversation.domain,
      // A rejoin reconnects (GET …/conversations/{id}?watermark=) from the last activity seen; a new conversation
      // is started with the locale, so the welcome is in the user's language.
      ...(rejoin
        ? {
            conversationId: conversation.conversationId,
            watermark: this.transcript.length ? (conversation.watermark ?? '') : '',
          }
        : { conversationStartProperties: { locale: this.options.locale } }),
    }) as unknown as InnerDirectLine;
    this.inner = inner;
    this.innerSubscriptions.push(
      inner.connectionStatus$.subscribe((status) => {
        this.innerOnline = status === ConnectionStatus.Online;
        if (this.innerOnline) this.wasOnline = true;
        if (
          status === ConnectionStatus.FailedToConnect ||
          status === ConnectionStatus.Ended ||
          status === ConnectionStatus.ExpiredToken
        ) {
          // The token could not start or rejoin the conversation (or has expired): a fresh one through the page's
          // route (a new conversation when it can no longer be renewed, as Direct Line's tokens/refresh refuses an
          // expired token).
          this.dropInner();
          this.scheduleRetry();
        }
        this.link();
        if (this.innerOnline) this.flushSoon();
      }),
      inner.activity$.subscribe({
        next: (activity) => this.received(activity),
        error: () => undefined,
      }),
    );
  }

  private dropInner(): void {
    for (const subscription of this.innerSubscriptions.splice(0)) subscription.unsubscribe();
    try {
      this.inner?.end();
    } catch {
      // Already ended.
    }
    this.inner = undefined;
    this.innerOnline = false;
  }

  private received(delivered: Activity): void {
    const activity = appliedUpdate(delivered, this.transcript);
    const state = this.inner as unknown as InnerState | undefined;
    if (this.conversation && state) {
      this.conversation.watermark = state.watermark ?? this.conversation.watermark;
      if (state.token) this.conversation.token = state.token;
      this.options.remember(this.conversation);
    }
    const clientActivityID = activity.channelData?.clientActivityID;
    this.transcript = this.transcript.filter(
      (kept) =>
        kept.id !== activity.id ||
        (clientActivityID && kept.channelData?.clientActivityID === clientActivityID),
    );
    this.transcript.push(activity);
    this.noteAnswer(activity);
    this.saveTranscriptSoon();
    this.incoming.next(activity);
  }

  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  private saveTranscriptSoon(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      const conversation = this.conversation;
      if (!conversation) return;
      void this.options.store
        .saveTranscript({
          conversationId: conversation.conversationId,
          userId: this.options.userId,
          activities: this.transcript,
          watermark: conversation.watermark,
        })
        .catch(() => undefined);
    }, 200);
  }

  /**
   * One retry timer for both ways to be stuck: when it fires, it rejoins if there is no socket, else sends what is
   * pending. (With a timer per cause, a socket that failed while a send's retry was waiting was never rejoined: the
   * send's retry found no socket and stopped, and the outbox kept its entry until the browser next went online.)
   */
  private scheduleRetry(): void {
    if (this.retryTimer || this.ended) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.inner) void this.flush();
      else void this.connect();
    }, RETRY_MS);
  }

  private flushSoon(): void {
    setTimeout(() => void this.flush(), 0);
  }

  /** Sends the pending entries in order; stops at the first that cannot go now (it is tried again later). */
  private async flush(): Promise<void> {
    if (this.flushing || this.ended || !this.conversation || !this.inner) return;
    this.flushing = true;
    try {
      for (;;) {
        const entry = this.entries.find((each) => each.state === 'pending');
        if (!entry || this.ended) return;
        const outcome = await this.send(entry);
        if (outcome !== 'later' && this.unreachable) {
          // The chat service answers again (a restarted relay): the socket, still in its backoff, rejoins now.
          this.unreachable = false;
          if (!this.innerOnline) this.rejoinNow();
          this.link();
        }
        if (outcome === 'sent') {
          await this.options.store.delete(entry.clientActivityID);
          this.entries = this.entries.filter((each) => each.clientActivityID !== entry.clientActivityID);
          this.options.onOutbox(this.entries);
        } else if (outcome === 'later') {
          this.unreachable = true;
          this.link();
          this.scheduleRetry();
          return;
        } else if (outcome === 'token') {
          // The token expired: a new one through the page's route (a session that ended asks to sign in).
          this.dropInner();
          this.scheduleRetry();
          void this.connect();
          return;
        } else {
          const failed: OutboxEntry = {
            ...entry,
            state: 'failed',
            reason: this.options.describe(outcome),
            retryable: outcome.kind === 'refused',
          };
          await this.options.store.put(failed);
          this.entries = this.entries.map((each) => (each === entry ? failed : each));
          this.options.onOutbox(this.entries);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** One entry to the relay (Direct Line 3.0: activities, or upload with its files), with its clientActivityID. */
  private async send(entry: OutboxEntry): Promise<'sent' | 'later' | 'token' | RefusalReason> {
    const conversation = this.conversation;
    if (!conversation) return 'later';
    const base = `${conversation.domain}/conversations/${encodeURIComponent(conversation.conversationId)}`;
    const activity = {
      ...entry.activity,
      from: { id: this.options.userId, name: this.options.userName, role: 'user' },
    };
    let response: Response;
    try {
      if (entry.files.length === 0) {
        response = await fetch(`${base}/activities`, {
          method: 'POST',
          headers: { authorization: `Bearer ${conversation.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(activity),
        });
      } else {
        const form = new FormData();
        form.append(
          'activity',
          new Blob([JSON.stringify(activity)], { type: 'application/vnd.microsoft.activity' }),
        );
        for (const file of entry.files) form.append('file', file.blob, file.name);
        response = await fetch(`${base}/upload?userId=${encodeURIComponent(this.options.userId)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${conversation.token}` },
          body: form,
        });
      }
    } catch {
      return 'later';
    }
    if (response.ok) {
      await response.body?.cancel();
      return 'sent';
    }
    const body = (await response.json().catch(() => ({}))) as {
      error?: { code?: string; message?: string; limitBytes?: number };
    };
    if (response.status === 401 || response.status === 403) return 'token';
    if (response.status === 413) {
      const bytes = entry.files.reduce((sum, file) => sum + file.blob.size, 0);
      const limit = body.error?.limitBytes ?? Number(/(\d+) bytes/.exec(body.error?.message ?? '')?.[1]);
      return {
        kind: 'too-large',
        bytes,
        limitBytes: Number.isFinite(limit) && limit > 0 ? limit : undefined,
      };
    }
    if (response.status === 429 || response.status >= 500 || response.status === 408) return 'later';
    return { kind: 'refused', status: response.status, code: body.error?.code };
  }

  /** Web Chat calls it on unmount (sign-out, a new sign-in): the socket closes; the outbox stays on the device. */
  end(): void {
    this.ended = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.dropInner();
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    for (const url of this.objectUrls.splice(0)) URL.revokeObjectURL(url);
    this.status.next(ConnectionStatus.Ended);
  }
}
