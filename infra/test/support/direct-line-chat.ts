import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// botframework-directlinejs in Node: xhr2 and ws as globals (its README's recipe), before it is loaded.
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import { type Activity, ConnectionStatus, DirectLine } from 'botframework-directlinejs';

export { ConnectionStatus };

/** What the tests read of an activity a client received (DirectLineJS's union type lacks replyToId on messages). */
export type ReceivedActivity = Activity & { text?: string; replyToId?: string };

/** A Direct Line conversation's token, from the secret (`POST /tokens/generate`). */
export async function generateToken(
  domain: string,
  secret: string,
): Promise<{ token: string; conversationId: string }> {
  const response = await fetch(`${domain}/tokens/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 200) throw new Error(`tokens/generate answered ${response.status}`);
  return (await response.json()) as { token: string; conversationId: string };
}

/** The whole log of a conversation as the polling route returns it (page by page). */
export async function readConversationLog(
  domain: string,
  conversationId: string,
  token: string,
): Promise<ReceivedActivity[]> {
  const activities: ReceivedActivity[] = [];
  let watermark = '';
  for (;;) {
    const response = await fetch(
      `${domain}/conversations/${encodeURIComponent(conversationId)}/activities?watermark=${watermark}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    if (response.status !== 200) throw new Error(`polling answered ${response.status}`);
    const page = (await response.json()) as { activities: ReceivedActivity[]; watermark?: string };
    if (page.activities.length === 0) return activities;
    activities.push(...page.activities);
    watermark = page.watermark ?? watermark;
  }
}

/** The sequence number in a stamped activity id (`{conversationId}|0000042` → 42). */
export function sequenceOf(activity: Activity): number {
  const match = /\|(\d+)$/.exec(activity.id ?? '');
  if (!match) throw new Error(`activity id without a sequence: ${activity.id}`);
  return Number(match[1]);
}

export interface ChatClientOptions {
  name: string;
  domain: string;
  token: string;
  /** Join an existing conversation (DirectLineJS resumes it through `GET /conversations/{id}`). */
  conversationId?: string;
}

/** One stock DirectLineJS client on WebSocket, recording everything it receives and the outcome of every send. */
export class ChatClient {
  readonly directLine: DirectLine;
  readonly received: ReceivedActivity[] = [];
  /** Sends the relay acknowledged: activity id → text. */
  readonly acknowledged = new Map<string, string>();
  /** Sends DirectLineJS resolved as "retry" (5xx, network error, timeout): their texts. */
  readonly interrupted: string[] = [];
  /** Sends that failed outright (4xx): messages. */
  readonly failed: string[] = [];
  /** Errors that ended the activity stream (e.g. "conversation ended" after a 404 on reconnect). */
  readonly streamErrors: string[] = [];
  status: ConnectionStatus = ConnectionStatus.Uninitialized;
  private sent = 0;

  constructor(readonly options: ChatClientOptions) {
    this.directLine = new DirectLine({
      domain: options.domain,
      token: options.token,
      conversationId: options.conversationId,
      webSocket: true,
    });
    this.directLine.connectionStatus$.subscribe((status) => (this.status = status));
    this.directLine.activity$.subscribe({
      next: (activity) => this.received.push(activity),
      error: (error: unknown) => this.streamErrors.push(String((error as Error)?.message ?? error)),
    });
  }

  get name(): string {
    return this.options.name;
  }

  /** Sends the next numbered message; resolves with the relay's id, or "retry" as DirectLineJS reports it. */
  send(): Promise<string> {
    const text = `${this.name} message ${this.sent++}`;
    return new Promise<string>((resolve) => {
      this.directLine.postActivity({ type: 'message', from: { id: this.name }, text }).subscribe({
        next: (id: string) => {
          if (id === 'retry') this.interrupted.push(text);
          else this.acknowledged.set(id, text);
          resolve(id);
        },
        error: (error: unknown) => {
          this.failed.push(`${text}: ${String((error as Error)?.message ?? error)}`);
          resolve('failed');
        },
      });
    });
  }

  end(): void {
    this.directLine.end();
  }
}
