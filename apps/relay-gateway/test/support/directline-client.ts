import XMLHttpRequest from 'xhr2';
import { WebSocket } from 'ws';

// The README's Node recipe for botframework-directlinejs: xhr2 and ws as globals.
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import {
  type Activity,
  ConnectionStatus,
  DirectLine,
  type DirectLineOptions,
} from 'botframework-directlinejs';

export { ConnectionStatus, DirectLine };

/** A DirectLineJS client with everything it emitted, for assertions. */
export class RecordingClient {
  readonly client: DirectLine;
  readonly activities: Activity[] = [];
  readonly statuses: ConnectionStatus[] = [];
  private readonly subscriptions: Array<{ unsubscribe(): void }> = [];

  constructor(options: DirectLineOptions & { random?: () => number }) {
    this.client = new DirectLine(options);
    this.subscriptions.push(
      this.client.connectionStatus$.subscribe((status) => this.statuses.push(status)),
      this.client.activity$.subscribe((activity) => this.activities.push(activity)),
    );
  }

  post(activity: Partial<Activity>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.client.postActivity(activity as Activity).subscribe(resolve, reject);
    });
  }

  ids(): string[] {
    return this.activities.map((activity) => activity.id ?? '');
  }

  texts(): string[] {
    return this.activities.map((activity) => (activity as { text?: string }).text ?? '');
  }

  end(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.client.end();
  }
}
