import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { BodyTooLargeError, cutOffBody, hasMediaType, limitBody } from './body-limit';

interface Outcome {
  error?: unknown;
  body?: unknown;
  /** `newListener` listeners on the request when the parser was called (limitBody's byte counter). */
  watchers: number;
}

/** A server whose one route runs `wrap(parser)` and reports what the callback got. */
async function serve(
  wrap: (parser: RequestHandler) => RequestHandler,
): Promise<{ server: Server; url: string; outcomes: Outcome[] }> {
  const outcomes: Outcome[] = [];
  const json = express.json({ limit: 1024 });
  const server = createServer((request, response) => {
    let watchers = 0;
    const parser: RequestHandler = (req, res, next) => {
      watchers = req.listenerCount('newListener');
      return json(req, res, next);
    };
    void wrap(parser)(
      request as Parameters<RequestHandler>[0],
      response as Parameters<RequestHandler>[1],
      (error?: unknown) => {
        outcomes.push({ error, body: (request as IncomingMessage & { body?: unknown }).body, watchers });
        response.statusCode = error ? 413 : 200;
        response.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, outcomes };
}

/** POSTs `chunks` (chunked unless `length` is given) and resolves with the status, or the socket's error. */
function post(url: string, chunks: string[], length?: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(length === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': length }),
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('limitBody', () => {
  let current: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => current?.close(resolve));
    current = undefined;
  });

  it('reads a body whose Content-Length is within the limit without counting its bytes', async () => {
    const { server, url, outcomes } = await serve((parser) => limitBody(parser, 100));
    current = server;
    const text = JSON.stringify({ text: 'hello' });
    expect(await post(url, [text], Buffer.byteLength(text))).toBe(200);
    expect(outcomes).toEqual([{ error: undefined, body: { text: 'hello' }, watchers: 0 }]);
  });

  it('refuses a Content-Length over the limit before reading', async () => {
    const { server, url, outcomes } = await serve((parser) => limitBody(parser, 10));
    current = server;
    const text = JSON.stringify({ text: 'a longer body' });
    await post(url, [text], Buffer.byteLength(text));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].error).toBeInstanceOf(BodyTooLargeError);
    expect(outcomes[0].error).toMatchObject({ limit: 10, length: Buffer.byteLength(text), status: 413 });
  });

  it('counts a chunked body and cuts it off at the byte that passes the limit', async () => {
    const { server, url, outcomes } = await serve((parser) => limitBody(parser, 20));
    current = server;
    await post(url, ['{"text":"', 'x'.repeat(30), '"}']);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].watchers).toBe(1);
    expect(outcomes[0].error).toBeInstanceOf(BodyTooLargeError);
    expect(outcomes[0].error).toMatchObject({ limit: 20, length: undefined });
  });

  it('reads a chunked body within the limit', async () => {
    const { server, url, outcomes } = await serve((parser) => limitBody(parser, 100));
    current = server;
    expect(await post(url, ['{"text":', '"hi"}'])).toBe(200);
    expect(outcomes).toEqual([{ error: undefined, body: { text: 'hi' }, watchers: 1 }]);
  });

  it('lets cutOffBody end a body of announced length with the given error (cutOff)', async () => {
    const cut = new Error('a part is too large');
    const { server, url, outcomes } = await serve((parser) =>
      limitBody(
        (request, response, next) => {
          request.once('data', () => cutOffBody(request, cut));
          parser(request, response, next);
        },
        100,
        undefined,
        { cutOff: true },
      ),
    );
    current = server;
    const text = JSON.stringify({ text: 'hello' });
    await post(url, [text], Buffer.byteLength(text));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].error).toBe(cut);
  });
});

describe('hasMediaType', () => {
  const of = (contentType?: string) => ({ headers: { 'content-type': contentType } }) as IncomingMessage;

  it('matches the media type without its parameters, in any case and spacing', () => {
    for (const contentType of [
      'application/json',
      'application/json;charset=utf-8',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json ; charset=utf-8',
      ' application/json',
    ])
      expect([contentType, hasMediaType(of(contentType), 'application/json')]).toEqual([contentType, true]);
  });

  it('does not match another type, a longer one, or none', () => {
    for (const contentType of [
      undefined,
      'application/jsonx',
      'application/json-patch+json',
      'text/plain',
      '',
    ])
      expect([contentType, hasMediaType(of(contentType), 'application/json')]).toEqual([contentType, false]);
  });
});
