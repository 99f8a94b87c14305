/**
 * The logging surface the bus needs; a pino logger satisfies it. Structured fields go first, the message second.
 */
export interface ActivityBusLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}
