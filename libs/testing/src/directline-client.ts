import { createRequire } from 'node:module';
import { WebSocket } from 'ws';

// The stock Direct Line client the relay's and the bot's suites drive (`@fieldops/testing/directline-client`, kept
// out of the package's index: it sets globals and loads botframework-directlinejs).

// The README's Node recipe for botframework-directlinejs: xhr2 and ws as globals (xhr2 ships no types).
const XMLHttpRequest: unknown = createRequire(__filename)('xhr2');
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import {
  type Activity,
  ConnectionStatus,
  DirectLine,
  type DirectLineOptions,
} from 'botframework-directlinejs';

export { ConnectionStatus, DirectLine };

/** An activity as the tests read and write it (DirectLineJS's union, flattened to the fields they use). */
export interface PlainActivity {
  type: string;
  id?: string;
  from: { id: string; name?: string };
  text?: string;
  locale?: string;
  value?: unknown;
  attachments?: Array<{ contentType?: string; contentUrl?: string; name?: string; content?: unknown }>;
}

/** The rxjs 5 Observable that botframework-directlinejs itself uses (its services must return those). */
const requireFromDirectLine = createRequire(require.resolve('botframework-directlinejs'));
const { Observable } = requireFromDirectLine('rxjs/Observable') as {
  Observable: { create<T>(subscribe: (observer: AjaxObserver<T>) => () => void): unknown };
};

interface AjaxObserver<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

interface AjaxRequest {
  method?: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  responseType?: string;
}

/**
 * The `ajax` service the DirectLineJS README leaves to Node users: xhr2 cannot send a FormData body, so
 * uploads (postActivity with attachments) go through fetch. Emits `{ status, response }` like rxjs's
 * AjaxResponse and fails with `{ status, response }` like AjaxError, which is what the client inspects.
 */
export function fetchAjax(request: AjaxRequest): unknown {
  return Observable.create<{ status: number; response: unknown }>((observer) => {
    const controller = new AbortController();
    const body =
      request.body === undefined || request.body instanceof FormData || typeof request.body === 'string'
        ? request.body
        : JSON.stringify(request.body);
    fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body,
      signal: controller.signal,
    })
      .then(async (response) => {
        let parsed: unknown;
        if (request.responseType === 'arraybuffer') parsed = await response.arrayBuffer();
        else {
          const text = await response.text();
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = text;
          }
        }
        if (response.status >= 400) observer.error({ status: response.status, response: parsed });
        else {
          observer.next({ status: response.status, response: parsed });
          observer.complete();
        }
      })
      .catch((error: unknown) => observer.error({ status: 0, response: String(error) }));
    return () => controller.abort();
  });
}

/**
 * A DirectLineJS client with everything it emitted, for assertions. `A` is how the test reads the activities
 * (DirectLineJS's own union by default, or `PlainActivity`).
 */
export class RecordingClient<A extends object = Activity> {
  readonly client: DirectLine;
  readonly activities: A[] = [];
  readonly statuses: ConnectionStatus[] = [];
  private readonly subscriptions: Array<{ unsubscribe(): void }> = [];

  constructor(options: DirectLineOptions & { random?: () => number; ajax?: typeof fetchAjax }) {
    this.client = new DirectLine(options as ConstructorParameters<typeof DirectLine>[0]);
    this.subscriptions.push(
      this.client.connectionStatus$.subscribe((status) => this.statuses.push(status)),
      this.client.activity$.subscribe((activity) => this.activities.push(activity as unknown as A)),
    );
  }

  post(activity: Partial<A>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.client.postActivity(activity as unknown as Activity).subscribe(resolve, reject);
    });
  }

  ids(): string[] {
    return this.activities.map((activity) => (activity as { id?: string }).id ?? '');
  }

  texts(): string[] {
    return this.activities.map((activity) => (activity as { text?: string }).text ?? '');
  }

  end(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.client.end();
  }
}
