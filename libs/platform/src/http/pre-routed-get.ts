import { type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

/** Serves one request a front has claimed: writes the whole answer (errors included) and never rejects. */
export type PreRoutedAnswer = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** A hot GET route answered on the http.Server itself, before Express (see answerBeforeFramework). */
export interface PreRoutedGet {
  /**
   * Decides synchronously, from the request line and headers alone, whether this front answers the request: its
   * answer, or undefined to leave the request to the framework exactly as if the front did not exist. It must not
   * touch the response, and must claim only requests whose every precondition the framework would check first
   * (method, path, host, credentials, role) it has checked with the framework's own rules.
   */
  match(request: IncomingMessage): PreRoutedAnswer | undefined;
}

/** The app-wide platform middleware (security headers, request id and access log, metrics). */
export type PlatformMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
) => void;

/**
 * Puts `fronts` on `server` before the framework's request listener (Express): a request one of them claims is
 * answered without Express's request/response prototypes, middleware chain, router and Nest's execution context; it
 * still goes through `platform`, the same middleware instances the framework's chain starts with (so the security
 * headers, request id, access-log line and metrics have one owner each). Every other request goes to the framework
 * listener unchanged. Call before the server listens; listeners added later (the drain's `Connection: close`) still
 * run for every request, after this one.
 */
export function answerBeforeFramework(
  server: Server,
  platform: readonly PlatformMiddleware[],
  fronts: readonly PreRoutedGet[],
): void {
  if (fronts.length === 0) return;
  const framework = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const passOn = (request: IncomingMessage, response: ServerResponse): void => {
    for (const listener of framework) listener(request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let answer: PreRoutedAnswer | undefined;
    if (request.method === 'GET') {
      for (const front of fronts) {
        answer = front.match(request);
        if (answer) break;
      }
    }
    if (!answer) {
      passOn(request, response);
      return;
    }
    const claimed = answer;
    const step = (index: number): void => {
      if (index < platform.length) platform[index](request, response, () => step(index + 1));
      else void claimed(request, response).catch(() => response.destroy());
    };
    step(0);
  });
}
