import pino, { type DestinationStream, type Logger } from 'pino';
import { type LogLevel } from '../config/common-environment';

/** Paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["ocp-apim-subscription-key"]',
  'req.headers["x-identity-header"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.client_assertion',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.refresh',
  '*.access',
];

export interface CreateLoggerOptions {
  service: string;
  level?: LogLevel;
  destination?: DestinationStream;
}

let sharedStandardOutput: DestinationStream | undefined;

/**
 * Standard output, shared by every logger of the process (the all-in-one runs four apps): asynchronous, so a line
 * costs the event loop no write system call of its own: the first line goes out at once from libuv's thread pool,
 * and the lines logged while a write is under way go together in the next one (under load, one write carries many
 * access-log lines; bench/relay/compare.js measured a synchronous write per line at 2–5 % of a process's CPU). One
 * destination keeps the lines whole and in order; pino flushes it synchronously when the process exits.
 */
function standardOutput(): DestinationStream {
  sharedStandardOutput ??= pino.destination({ dest: 1, sync: false });
  return sharedStandardOutput;
}

/** One JSON logger per service: ISO timestamps, the service name on every line, secrets redacted. */
export function createLogger({ service, level = 'info', destination }: CreateLoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? standardOutput(),
  );
}

export type { Logger } from 'pino';
