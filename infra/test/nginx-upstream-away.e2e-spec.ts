import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '@fieldops/platform';
import { freePort, NGINX_BINARY, NginxProcess, renderNginxConfiguration } from '../src';
import { REPOSITORY_ROOT } from './deployment-files';

const MESSAGE = 'Service temporarily unavailable, try again later.';
const BOT_FRAMEWORK = { error: { code: 'ServiceUnavailable', message: MESSAGE } };
const DIRECT_LINE_V1 = { error: { code: 'ServiceError', message: MESSAGE, statusCode: 503 } };

interface Answer {
  status: number;
  retryAfter: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** One request through nginx with any Host header; the body parsed when it is JSON. */
function call(port: number, method: string, path: string, host = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers: { host, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // plain text
          }
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            contentType: response.headers['content-type'],
            body,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(method === 'POST' ? '{"type":"message","text":"hi"}' : undefined);
  });
}

/**
 * The public entrance when a service is away (issue 22: a dependency that is away is a 503 with Retry-After in each
 * wire format): nginx's own 502/504 (connection refused, a relay killed mid-request) become the service's 503, and a
 * service's own 502 (the relay's BotError for a failing bot) passes unchanged.
 */
(NGINX_BINARY ? describe : describe.skip)('nginx with a service away (real nginx from Debian)', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'fieldops-nginx-away-'));
  let relay: Server;
  let nginx: NginxProcess;
  let port = 0;
  let pinnedPort = 0;

  beforeAll(async () => {
    // A relay that answers its own 502 BotError for one conversation and dies mid-request (the socket destroyed
    // before any answer, as a SIGKILL does) for another; every other service's port listens to nothing.
    relay = createServer((incoming, response) => {
      incoming.resume();
      if (incoming.url?.includes('/bot-fails/')) {
        response
          .writeHead(502, { 'content-type': 'application/json' })
          .end('{"error":{"code":"BotError","message":"Failed to send activity: bot returned an error"}}');
      } else incoming.socket.destroy();
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayAddress = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
    const [away, listenPort, pinned] = await Promise.all([freePort(), freePort(), freePort()]);
    port = listenPort;
    pinnedPort = pinned;
    const configuration = renderNginxConfiguration({
      repositoryRoot: REPOSITORY_ROOT,
      prefix,
      listenPort: port,
      inspectionApi: [`127.0.0.1:${away}`],
      relayGateway: [relayAddress],
      connectorGateway: [`127.0.0.1:${away}`],
      inspectionConsole: [`127.0.0.1:${away}`],
      pinnedRelayEntrances: [
        {
          listenPort: pinned,
          primary: `127.0.0.1:${away}`,
          backups: [],
          accessLog: join(prefix, 'pinned.log'),
        },
      ],
    });
    nginx = new NginxProcess(prefix, configuration);
    await nginx.start(`http://127.0.0.1:${port}/nginx-healthz`);
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => relay?.close(resolve));
    rmSync(prefix, { recursive: true, force: true });
  });

  const unavailable = (body: unknown, contentType = 'application/json') => ({
    status: 503,
    retryAfter: String(DEPENDENCY_RETRY_AFTER_SECONDS),
    contentType,
    body,
  });

  it('answers a relay that died mid-request with Direct Line’s 503 (3.0 and 1.1), not 502', async () => {
    expect(await call(port, 'POST', '/v3/directline/conversations/dies/activities')).toEqual(
      unavailable(BOT_FRAMEWORK),
    );
    expect(await call(port, 'POST', '/relay/api/conversations/dies/messages')).toEqual(
      unavailable(DIRECT_LINE_V1),
    );
    // The host-based entrance: 1.1 at /api, 3.0 elsewhere.
    expect(await call(port, 'POST', '/api/conversations/dies/messages', 'directline.example.org')).toEqual(
      unavailable(DIRECT_LINE_V1),
    );
    expect(
      await call(port, 'GET', '/v3/directline/conversations/dies/stream', 'directline.example.org'),
    ).toEqual(unavailable(BOT_FRAMEWORK));
    // The fault harness's pinned entrances answer as the public one does.
    expect(await call(pinnedPort, 'POST', '/v3/directline/conversations/c/activities')).toEqual(
      unavailable(BOT_FRAMEWORK),
    );
  });

  it('passes the relay’s own 502 BotError (a failing bot) unchanged', async () => {
    const answer = await call(port, 'POST', '/v3/directline/conversations/bot-fails/activities');
    expect([answer.status, answer.retryAfter, answer.body]).toEqual([
      502,
      undefined,
      { error: { code: 'BotError', message: 'Failed to send activity: bot returned an error' } },
    ]);
  });

  it('answers connector-gateway away with the Bot Connector 503, inspection-api away with DRF’s', async () => {
    expect(await call(port, 'POST', '/v3/conversations/c/activities')).toEqual(unavailable(BOT_FRAMEWORK));
    expect(await call(port, 'GET', '/.well-known/openid-configuration')).toEqual(unavailable(BOT_FRAMEWORK));
    expect(await call(port, 'GET', '/api/devices/')).toEqual(unavailable({ detail: MESSAGE }));
    expect(await call(port, 'GET', '/media/photo.png')).toEqual(unavailable({ detail: MESSAGE }));
    expect(await call(port, 'GET', '/console/')).toEqual(unavailable(`${MESSAGE}\n`, 'text/plain'));
  });
});
