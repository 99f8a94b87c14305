import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo } from 'node:net';

/** A request as the proxy received it (body read whole). */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A plain HTTP forwarder on loopback standing where a load balancer or a network hop stands in a deployment:
 * `route` names the origin each request goes to (it may wait first, to line requests up); the answer is passed back
 * as it came. No part of the platform is replaced: requests reach the real services unchanged.
 */
export async function startForwardingProxy(
  route: (request: ProxiedRequest) => string | Promise<string>,
): Promise<ForwardingProxy> {
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name))
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const request: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers,
        body: await bodyOf(incoming),
      };
      const origin = await route(request);
      const answer = await fetch(`${origin}${request.path}`, {
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
      });
      const answerHeaders: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
      });
      const payload = Buffer.from(await answer.arrayBuffer());
      outgoing.writeHead(answer.status, answerHeaders).end(payload);
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
