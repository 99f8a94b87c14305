import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/** One HTTP exchange as the wire carried it. */
export interface WireAnswer {
  status: number;
  /** Every header as `Name: value`, in wire order and case; `Date` left out (it is the clock's). */
  headers: string[];
  body: string;
}

/** A request of a parity case. */
export interface ParityRequest {
  method?: string;
  /** Path and query, sent as written (no normalisation). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends one request on its own connection and reads the whole answer, headers in wire order. */
export function wireExchange(baseUrl: string, request: ParityRequest): Promise<WireAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method ?? 'GET',
        path: request.path,
        headers: { connection: 'close', ...request.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers: string[] = [];
          for (let index = 0; index < response.rawHeaders.length; index += 2) {
            if (response.rawHeaders[index]?.toLowerCase() === 'date') continue;
            headers.push(`${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}`);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    // A refusal before the body was read may close the connection while the body is still being written.
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** What the framework path needs of a started Nest app: its Express instance (the listener the front wraps). */
export interface FrameworkApp {
  getHttpAdapter(): { getInstance(): unknown };
}

/** A second listener of the same app on another port: the framework's pipeline alone, no fast path in front. */
export interface FrameworkListener {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the same app (same module instance, same state) through the framework only: a plain HTTP server whose
 * request listener is the app's Express instance, as Nest would have installed it without the platform's front.
 */
export async function frameworkListener(app: FrameworkApp): Promise<FrameworkListener> {
  const server: Server = createServer(app.getHttpAdapter().getInstance() as RequestListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** How two answers are made comparable: values that differ by nature (a fresh id, a duration) are masked. */
export interface ParityNormalisation {
  /** Header names (any case) whose values are replaced by `<name>`: random ids, timings. */
  maskHeaders?: readonly string[];
  /** Rewrites a body before comparing (e.g. masks the sequence number of an activity id). */
  body?: (body: string) => string;
}

export interface ParityPair {
  /** The answer of the app's own server (the fast path, when the route has one). */
  fast: WireAnswer;
  /** The answer of the framework alone for the same request. */
  framework: WireAnswer;
}

/**
 * Byte parity between an app's server (its fast path in front of the framework) and the framework alone, for the
 * same app: each request is sent to both, the answers normalised only as declared, and returned for comparison.
 */
export class ParityHarness {
  private constructor(
    private readonly fastUrl: string,
    private readonly framework: FrameworkListener,
    private readonly normalisation: ParityNormalisation,
  ) {}

  /** `url`: the app's own server; `app`: the same app, served a second time through the framework alone. */
  static async start(
    url: string,
    app: FrameworkApp,
    normalisation: ParityNormalisation = {},
  ): Promise<ParityHarness> {
    return new ParityHarness(url, await frameworkListener(app), normalisation);
  }

  /** The framework-only server's base URL. */
  get frameworkUrl(): string {
    return this.framework.url;
  }

  /** Sends `request` to the framework first, then to the app's server (each may change state: the same change). */
  async both(request: ParityRequest): Promise<ParityPair> {
    // One Host (absolute URLs name it) and one request id (each path otherwise makes up its own) for both.
    const given = new Set(Object.keys(request.headers ?? {}).map((name) => name.toLowerCase()));
    const headers: Record<string, string> = {};
    if (!given.has('host')) headers.Host = new URL(this.fastUrl).host;
    if (!given.has('x-request-id')) headers['X-Request-Id'] = 'parity-check';
    request = { ...request, headers: { ...headers, ...request.headers } };
    const framework = this.normalise(await wireExchange(this.framework.url, request));
    const fast = this.normalise(await wireExchange(this.fastUrl, request));
    return { fast, framework };
  }

  close(): Promise<void> {
    return this.framework.close();
  }

  private normalise(answer: WireAnswer): WireAnswer {
    const masked = new Set((this.normalisation.maskHeaders ?? []).map((name) => name.toLowerCase()));
    return {
      status: answer.status,
      headers: answer.headers.map((line) => {
        const name = line.slice(0, line.indexOf(':'));
        return masked.has(name.toLowerCase()) ? `${name}: <${name.toLowerCase()}>` : line;
      }),
      body: this.normalisation.body ? this.normalisation.body(answer.body) : answer.body,
    };
  }
}
