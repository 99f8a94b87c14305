import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger, type LogLevel } from '@fieldops/platform';

/** Test support: a service logger whose JSON lines are kept in `lines` (what an operator's log would hold). */
export function capturingLogger(
  service: string,
  level: LogLevel = 'debug',
): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ service, level, destination }), lines };
}

export interface RawExchange {
  /** What the server wrote, as latin1 text. */
  received: string;
  /** Set when the server closed the connection (milliseconds after it was opened). */
  closedAfterMs?: number;
}

/**
 * Test support: a slow client. Opens a raw TCP connection and writes `chunks` one every `everyMs`; resolves once the
 * server closes the connection, or after `maxMs` (then `closedAfterMs` is unset).
 */
export function trickleRequest(
  port: number,
  chunks: readonly (string | Buffer)[],
  everyMs: number,
  maxMs: number,
) {
  return new Promise<RawExchange>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const opened = Date.now();
    let received = '';
    let next = 0;
    const writer = setInterval(() => {
      const chunk = chunks[next++];
      if (chunk !== undefined && !socket.destroyed) socket.write(chunk);
    }, everyMs);
    const finish = (closedAfterMs?: number): void => {
      clearInterval(writer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ received, closedAfterMs });
    };
    const deadline = setTimeout(() => finish(), maxMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - opened));
    socket.write(chunks[next++] ?? '');
  });
}

/** Test support: request headers trickled one line at a time (never finished). */
export function slowHeaders(requestLine: string, lines = 60): string[] {
  return [
    `${requestLine}\r\n`,
    'Host: probe\r\n',
    ...Array.from({ length: lines }, (_, i) => `X-Slow-${i}: 1\r\n`),
  ];
}

export interface UnreadUploadExchange extends RawExchange {
  /** Body bytes written when the answer started arriving (the first chunk only, if the server answered at once). */
  bodyBytesBeforeAnswer: number;
  /** Body bytes written in all before the server closed the connection (or the client gave up). */
  bodyBytesWritten: number;
}

/**
 * Test support: an unauthenticated (or any) chunked upload of `totalBytes` that waits for the server's answer after
 * its first chunk (up to `answerWithinMs`), then keeps writing, with backpressure, until the server closes the
 * connection or everything is sent. A server that refuses before reading answers at once and closes; one that reads
 * (or drains) the body lets the client send it all.
 */
export function chunkedUpload(
  port: number,
  head: string,
  totalBytes: number,
  answerWithinMs = 3_000,
  maxMs = 20_000,
): Promise<UnreadUploadExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const opened = Date.now();
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const framed = Buffer.concat([
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      piece,
      Buffer.from('\r\n'),
    ]);
    let received = '';
    let written = 0;
    let beforeAnswer: number | undefined;
    let done = false;
    const finish = (closedAfterMs?: number): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(patience);
      socket.destroy();
      resolve({
        received,
        closedAfterMs,
        bodyBytesBeforeAnswer: beforeAnswer ?? written,
        bodyBytesWritten: written,
      });
    };
    const pump = (): void => {
      while (!done && !socket.destroyed && written < totalBytes) {
        written += piece.length;
        if (!socket.write(framed)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (written >= totalBytes && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    const deadline = setTimeout(() => finish(), maxMs);
    // Without an answer after the first chunk, carry on sending (a server that reads the body answers at its end).
    const patience = setTimeout(pump, answerWithinMs);
    socket.on('data', (chunk: Buffer) => {
      if (beforeAnswer === undefined) {
        beforeAnswer = written;
        clearTimeout(patience);
        pump();
      }
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - opened));
    socket.write(`${head.replace(/\r?\n/g, '\r\n').trimEnd()}\r\nTransfer-Encoding: chunked\r\n\r\n`);
    written += piece.length;
    socket.write(framed);
  });
}

export interface OversizedBodyExchange {
  /** What the server wrote, as latin1 text. */
  received: string;
  /** Body bytes the client wrote before the server closed the connection (or before it sent them all). */
  bodyBytesWritten: number;
  /** Whether the server closed the connection (rather than the client giving up after `maxMs`). */
  closedByServer: boolean;
}

/**
 * Test support: a request whose body is `totalBytes` long (`prefix`, then `a`s) — announced by `Content-Length`, or chunked — written as fast
 * as the server takes it (with backpressure) until the server closes the connection. A server that cuts an oversized
 * body off answers and closes while most of it is unsent; one that reads (or drains) it takes it all first. Resolves
 * once the server has closed the connection, or has answered after taking the whole body, or after `maxMs` (a bound
 * for a stuck server, not a measure).
 */
export function oversizedBody(
  port: number,
  head: string,
  totalBytes: number,
  options: { chunked: boolean; maxMs?: number; prefix?: string },
): Promise<OversizedBodyExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const framed = options.chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece;
    let received = '';
    let written = 0;
    let done = false;
    let ended = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ received, bodyBytesWritten: written, closedByServer: ended });
    };
    const pump = (): void => {
      while (!done && !socket.destroyed && written < totalBytes) {
        const size = Math.min(piece.length, totalBytes - written);
        written += size;
        const chunk =
          size === piece.length
            ? framed
            : options.chunked
              ? Buffer.concat([
                  Buffer.from(`${size.toString(16)}\r\n`),
                  piece.subarray(0, size),
                  Buffer.from('\r\n'),
                ])
              : piece.subarray(0, size);
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (written >= totalBytes && !socket.destroyed) {
        if (options.chunked) socket.write('0\r\n\r\n');
        if (received !== '') finish();
      }
    };
    const deadline = setTimeout(finish, options.maxMs ?? 120_000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (written >= totalBytes) finish();
    });
    socket.on('end', () => {
      ended = true;
      finish();
    });
    socket.on('error', () => {
      ended = true;
      finish();
    });
    socket.on('close', () => {
      ended = true;
      finish();
    });
    const framing = options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${totalBytes}`;
    socket.write(`${head.replace(/\r?\n/g, '\r\n').trimEnd()}\r\n${framing}\r\n\r\n`);
    // The body's start (a multipart part's headers …), then `a`s to totalBytes.
    if (options.prefix) {
      const prefix = Buffer.from(options.prefix);
      written += prefix.length;
      socket.write(
        options.chunked
          ? Buffer.concat([Buffer.from(`${prefix.length.toString(16)}\r\n`), prefix, Buffer.from('\r\n')])
          : prefix,
      );
    }
    pump();
  });
}

/**
 * One request sent with exactly the given Host header (fetch and undici set their own): the probe of a gateway's
 * allowed-hosts rule. Answers the status and the body as text.
 */
export function requestWithHost(
  target: string,
  host: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(target);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers: { ...options.headers, host },
        setHost: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
