import XMLHttpRequest from 'xhr2';
import { createRequire } from 'node:module';
import { WebSocket } from 'ws';

// The README's Node recipe for botframework-directlinejs: xhr2 and ws as globals.
Object.assign(globalThis, { XMLHttpRequest, WebSocket });

import { type Activity as DirectLineActivity, DirectLine } from 'botframework-directlinejs';

/** An activity as the tests read and write it (DirectLineJS's union, flattened to the fields used). */
export interface Activity {
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

/** The stock DirectLineJS client on the relay, with everything the bot sent, for assertions. */
export class ChatClient {
  readonly client: DirectLine;
  readonly received: Activity[] = [];
  private readonly subscription: { unsubscribe(): void };

  constructor(options: { token: string; conversationId?: string; domain: string }) {
    this.client = new DirectLine({
      ...options,
      webSocket: true,
      ajax: fetchAjax,
    } as ConstructorParameters<typeof DirectLine>[0]);
    this.subscription = this.client.activity$.subscribe((activity) => this.received.push(activity));
  }

  post(activity: Partial<Activity>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.client.postActivity(activity as unknown as DirectLineActivity).subscribe(resolve, reject);
    });
  }

  end(): void {
    this.subscription.unsubscribe();
    this.client.end();
  }
}
