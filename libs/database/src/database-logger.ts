/**
 * The logging surface this library needs. A pino logger (or a child of one) satisfies it; the library
 * never writes to the console itself.
 */
export interface DatabaseLogger {
  debug?(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/** A logger that drops everything; the default when no logger is passed. */
export const silentDatabaseLogger: DatabaseLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
