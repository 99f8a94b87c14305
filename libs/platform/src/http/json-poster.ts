import { Agent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** How a POST ended: the peer's status and (when asked for) its body, a timeout, or a transport failure. */
export type PostOutcome =
  | { kind: 'answered'; status: number; body?: Buffer }
  | { kind: 'timeout' }
  | { kind: 'failed'; reason: string };

export interface PostOptions {
  /** Deadline for the whole exchange, the answer's body included. */
  timeoutMs: number;
  /** Read the answer's body up to this many bytes (a longer one is dropped: `body` undefined); else discard it. */
  readBodyUpTo?: number;
}

/** Idle keep-alive connections are closed after this long, before a peer with Node's default 5 s closes them. */
const IDLE_SOCKET_TIMEOUT_MS = 4_000;

/** The endpoints whose request target is kept (configured endpoints: a handful); past it the cache starts over. */
const KEPT_TARGETS = 1_000;

/** What a POST to one endpoint always sends: its request options and `Host`, computed once per endpoint. */
interface Target {
  secure: boolean;
  options: RequestOptions;
  /** The `Host` header node:http would send (host, and the port when not the default). */
  host: string;
}

function targetOf(url: URL): Target {
  const secure = url.protocol === 'https:';
  return {
    secure,
    options: {
      protocol: url.protocol,
      // node:http takes an IPv6 address without its brackets.
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      ...(url.port !== '' && { port: Number(url.port) }),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      ...(url.username !== '' || url.password !== ''
        ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
        : {}),
    },
    host: url.host,
  };
}

/**
 * POSTs a JSON body over keep-alive connections (http and https), headers and body in one write (a string body is
 * appended to the header block by node:http and sent in one `write`; a Buffer goes in one corked `writev`), for the
 * service-to-service hops on the message path (relay → connector, connector → bot): node:http's agents rather than
 * fetch, whose per-request cost was a tenth of a message's CPU time in bench/relay/compare.js. Redirects are not
 * followed. close() drops the idle connections.
 */
export class JsonPoster {
  private readonly httpAgent: Agent;
  private readonly httpsAgent: HttpsAgent;
  /** Endpoint → its request target, so a configured endpoint is parsed once, not on every POST. */
  private readonly targets = new Map<string, Target>();

  constructor(maxSockets = 256) {
    const options = { keepAlive: true, maxSockets, timeout: IDLE_SOCKET_TIMEOUT_MS };
    this.httpAgent = new Agent(options);
    this.httpsAgent = new HttpsAgent(options);
  }

  post(
    endpoint: string | URL,
    headers: Record<string, string | number>,
    body: string | Buffer,
    options: PostOptions,
  ): Promise<PostOutcome> {
    return new Promise<PostOutcome>((resolve) => {
      let target: Target;
      try {
        target = this.targetOf(endpoint);
      } catch {
        resolve({ kind: 'failed', reason: `invalid URL ${String(endpoint)}` });
        return;
      }
      const secure = target.secure;
      // The header block as a list (node:http writes it as given, without a header map): Host first, as node:http
      // puts it, then the caller's, then the length. An endpoint with credentials gets node:http's Basic header.
      const auth = target.options.auth !== undefined;
      const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      const list: string[] = [];
      if (!auth) list.push('Host', target.host);
      for (const name in headers) list.push(name, String(headers[name]));
      list.push('Content-Length', String(length));
      let settled = false;
      const settle = (outcome: PostOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const limit = options.readBodyUpTo;
      const request = (secure ? httpsRequest : httpRequest)(
        {
          ...target.options,
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: auth ? { ...headers, 'Content-Length': length } : list,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          if (limit === undefined) response.resume();
          else
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size <= limit) chunks.push(chunk);
            });
          response.on('end', () =>
            settle(
              limit === undefined || size > limit
                ? { kind: 'answered', status }
                : { kind: 'answered', status, body: Buffer.concat(chunks, size) },
            ),
          );
          response.on('error', (error) => settle({ kind: 'failed', reason: error.message }));
        },
      );
      const timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        request.destroy();
      }, options.timeoutMs);
      request.on('error', (error) => settle({ kind: 'failed', reason: error.message }));
      request.end(body);
    });
  }

  private targetOf(endpoint: string | URL): Target {
    const key = typeof endpoint === 'string' ? endpoint : endpoint.href;
    let target = this.targets.get(key);
    if (!target) {
      target = targetOf(typeof endpoint === 'string' ? new URL(endpoint) : endpoint);
      if (this.targets.size >= KEPT_TARGETS) this.targets.clear();
      this.targets.set(key, target);
    }
    return target;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A JSON body as an object (undefined when empty or not JSON). */
export function parseJsonBody(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
