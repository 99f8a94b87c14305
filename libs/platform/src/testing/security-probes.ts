import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { type Logger } from 'pino';
import { type LogLevel } from '../config/common-environment';
import { createLogger } from '../logging/create-logger';

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
