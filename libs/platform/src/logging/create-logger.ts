import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
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
 * How log lines are written to an output: readable lines when it is a terminal (a person reads them), JSON otherwise
 * (a collector parses them: compose, Kubernetes, a pipe or a file).
 */
export function logFormat(output: { isTTY?: boolean }): 'readable' | 'json' {
  return output.isTTY === true ? 'readable' : 'json';
}

/** A line's message on a terminal: the service, then the message, or an access line's method, URL, status and time. */
export function terminalMessage(line: Record<string, unknown>): string {
  const service = typeof line.service === 'string' ? `${line.service}: ` : '';
  const request = line.req as { method?: string; url?: string } | undefined;
  const response = line.res as { statusCode?: number } | undefined;
  const message = typeof line.msg === 'string' ? line.msg : '';
  if (request === undefined || response === undefined) return `${service}${message}`;
  const outcome = message === 'request aborted' ? 'aborted' : String(response.statusCode);
  return `${service}${request.method} ${request.url} ${outcome} ${String(line.responseTime)} ms`;
}

/**
 * Readable log lines for a terminal (pino-pretty): time, level, service and message on one line, the other fields
 * after it. Written synchronously: a person reads them, and order matters more than the write's cost there.
 */
export function terminalDestination(
  destination: number | NodeJS.WritableStream = 1,
  colorize?: boolean,
): DestinationStream {
  return pretty({
    destination,
    sync: true,
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,req,res,responseTime',
    singleLine: true,
    messageFormat: (line) => terminalMessage(line),
  });
}

/**
 * Standard output, shared by every logger of the process (the all-in-one runs four apps): asynchronous, so a line
 * costs the event loop no write system call of its own: the first line goes out at once from libuv's thread pool,
 * and the lines logged while a write is under way go together in the next one (under load, one write carries many
 * access-log lines; bench/relay/compare.js measured a synchronous write per line at 2–5 % of a process's CPU). One
 * destination keeps the lines whole and in order; pino flushes it synchronously when the process exits. On a terminal
 * the lines are readable instead (logFormat).
 */
function standardOutput(): DestinationStream {
  sharedStandardOutput ??=
    logFormat(process.stdout) === 'readable'
      ? terminalDestination(1)
      : pino.destination({ dest: 1, sync: false });
  return sharedStandardOutput;
}

/**
 * One logger per service: JSON lines with ISO timestamps and the service name (readable lines when standard output is a
 * terminal), secrets redacted.
 */
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
