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
    destination,
  );
}

export type { Logger } from 'pino';
