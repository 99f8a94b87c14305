import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { freePort } from '../lifecycle/free-port';
import { JsonPoster, parseJsonBody } from './json-poster';

describe('JsonPoster', () => {
  let server: Server;
  let url: string;
  let handle: (request: IncomingMessage, body: string, response: ServerResponse) => void;
  const poster = new JsonPoster();

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => handle(request, Buffer.concat(chunks).toString('utf8'), response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/messages`;
  });
  afterAll(async () => {
    poster.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs the body with its headers and Content-Length, and reads the answer when asked', async () => {
    handle = (request, body, response) =>
      response.writeHead(201).end(JSON.stringify({ got: body, header: request.headers['x-test'] }));
    const body = Buffer.from(JSON.stringify({ type: 'message' }));
    const outcome = await poster.post(url, { 'X-Test': 'yes' }, body, {
      timeoutMs: 5000,
      readBodyUpTo: 1000,
    });
    expect(outcome).toMatchObject({ kind: 'answered', status: 201 });
    expect(parseJsonBody((outcome as { body?: Buffer }).body)).toEqual({
      got: '{"type":"message"}',
      header: 'yes',
    });
    // Discarded unless asked for, and dropped when longer than the limit.
    expect(await poster.post(url, {}, body, { timeoutMs: 5000 })).toEqual({ kind: 'answered', status: 201 });
    expect(await poster.post(url, {}, body, { timeoutMs: 5000, readBodyUpTo: 5 })).toEqual({
      kind: 'answered',
      status: 201,
    });
  });

  it('sends a string body with the header block node:http would build: Host, the length in bytes, keep-alive', async () => {
    let seen: { url?: string; rawHeaders: string[]; body: string } | undefined;
    handle = (request, body, response) => {
      seen = { url: request.url, rawHeaders: request.rawHeaders, body };
      response.writeHead(200).end();
    };
    const body = JSON.stringify({ text: 'héllo' });
    const host = new URL(url).host;
    expect(await poster.post(`${url}?a=1`, { 'X-Test': 'yes' }, body, { timeoutMs: 5000 })).toEqual({
      kind: 'answered',
      status: 200,
    });
    expect(seen).toEqual({
      url: '/api/messages?a=1',
      rawHeaders: [
        'Host',
        host,
        'X-Test',
        'yes',
        'Content-Length',
        String(Buffer.byteLength(body)),
        'Connection',
        'keep-alive',
      ],
      body,
    });
    // Credentials in the endpoint's URL become node:http's Basic authorization, as before.
    await poster.post(url.replace('http://', 'http://us%20er:pa@'), {}, '{}', { timeoutMs: 5000 });
    const headers = seen!.rawHeaders;
    expect(headers[headers.indexOf('Authorization') + 1]).toBe(
      `Basic ${Buffer.from('us er:pa').toString('base64')}`,
    );
  });

  it('reports a timeout and an unreachable peer', async () => {
    handle = (_request, _body, response) => setTimeout(() => response.writeHead(200).end(), 500);
    expect(await poster.post(url, {}, Buffer.from('{}'), { timeoutMs: 50 })).toEqual({ kind: 'timeout' });
    const closed = await freePort();
    expect(
      await poster.post(`http://127.0.0.1:${closed}/`, {}, Buffer.from('{}'), { timeoutMs: 5000 }),
    ).toMatchObject({ kind: 'failed', reason: expect.stringContaining('ECONNREFUSED') as unknown });
    expect(await poster.post('not a url', {}, Buffer.from('{}'), { timeoutMs: 5000 })).toMatchObject({
      kind: 'failed',
    });
  });
});
