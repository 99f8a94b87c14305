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
