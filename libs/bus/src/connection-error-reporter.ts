import { type ActivityBusLogger } from './activity-bus-logger';

export interface ConnectionErrorReporterOptions {
  /** Which connection this is, e.g. 'publisher' or 'subscriber'. */
  connection: string;
  /** Where it connects to, without credentials. */
  target: string;
  logger?: ActivityBusLogger;
  /** While the connection stays down, repeat a summary at most this often. Default 60 s. */
  repeatIntervalMs?: number;
  /** Clock, replaceable in tests. */
  now?: () => number;
}

/**
 * Turns ioredis connection events into a few log lines per outage instead of one per retry: the first error or
 * disconnect is logged, further failures are counted and summarized at most once per interval, and recovery is
 * logged with the number of failures it took.
 */
export class ConnectionErrorReporter {
  private readonly repeatIntervalMs: number;
  private readonly now: () => number;
  private outageStartedAt: number | undefined;
  private lastLoggedAt: number | undefined;
  private failuresInOutage = 0;
  private failuresSinceLastLog = 0;
  private latestError: Error | undefined;

  constructor(private readonly options: ConnectionErrorReporterOptions) {
    this.repeatIntervalMs = options.repeatIntervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The most recent error since the connection was last ready, for readiness messages. */
  get lastError(): Error | undefined {
    return this.latestError;
  }

  /** ioredis 'error' event: a connection attempt or the live connection failed. */
  recordError(error: Error): void {
    this.latestError = error;
    this.failuresInOutage += 1;
    this.failuresSinceLastLog += 1;
    this.startOutage();
    if (this.shouldLog()) {
      this.warn({ err: error }, 'Redis activity bus connection failed; reconnecting');
    }
  }

  /** ioredis 'reconnecting' event: the connection dropped (possibly without an error, e.g. CLIENT KILL). */
  recordDisconnect(retryDelayMs?: number): void {
    this.startOutage();
    if (this.lastLoggedAt === undefined) {
      this.warn({ retryDelayMs }, 'Redis activity bus connection lost; reconnecting');
    }
  }

  /** ioredis 'ready' event: the connection works (again). */
  recordReady(): void {
    if (this.outageStartedAt !== undefined) {
      this.options.logger?.info?.(
        {
          ...this.context(),
          failedAttempts: this.failuresInOutage,
          outageMs: this.now() - this.outageStartedAt,
        },
        'Redis activity bus connection restored',
      );
    }
    this.outageStartedAt = undefined;
    this.lastLoggedAt = undefined;
    this.failuresInOutage = 0;
    this.failuresSinceLastLog = 0;
    this.latestError = undefined;
  }

  private startOutage(): void {
    this.outageStartedAt ??= this.now();
  }

  private shouldLog(): boolean {
    return this.lastLoggedAt === undefined || this.now() - this.lastLoggedAt >= this.repeatIntervalMs;
  }

  private warn(fields: object, message: string): void {
    const repeated = this.lastLoggedAt !== undefined;
    this.options.logger?.warn(
      {
        ...this.context(),
        ...fields,
        failedAttempts: this.failuresInOutage,
        ...(repeated ? { failuresSinceLastLog: this.failuresSinceLastLog } : {}),
        outageMs: this.outageStartedAt === undefined ? 0 : this.now() - this.outageStartedAt,
      },
      repeated ? `${message} (still down)` : message,
    );
    this.lastLoggedAt = this.now();
    this.failuresSinceLastLog = 0;
  }

  private context(): object {
    return { connection: this.options.connection, target: this.options.target };
  }
}
