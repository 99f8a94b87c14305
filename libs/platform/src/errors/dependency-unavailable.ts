import { ServiceUnavailableException } from '@nestjs/common';

/**
 * A dependency that is away (PostgreSQL, Redis) is a 503 with `Retry-After`, never a 500 or a 401: every app's
 * exception filter answers it in its own wire format (WireExceptionFilter), and the apps reconnect by themselves
 * (the PostgreSQL pool opens a new connection for the next query, Redis connections retry forever).
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** A request that failed because a dependency is unavailable (503, `Retry-After`). */
export class DependencyUnavailableException extends ServiceUnavailableException {
  constructor(cause?: unknown) {
    super('Service temporarily unavailable, try again later.', { cause });
  }
}

/** Socket errors of a connection to a server that is down, unreachable or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs of a server that is away: class 08 (connection exception), 57P01–57P03 (shut down by an
 * administrator, crashed, cannot connect now), 53300 (too many connections).
 */
const POSTGRES_STATES = /^(08...|57P0[123]|53300)$/;

/** Messages of the node-postgres pool and of ioredis when the server is away (they carry no code). */
const MESSAGES = [
  /^Connection terminated/, // pg: the server closed the connection
  /^timeout exceeded when trying to connect$/, // pg pool: connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/, // pg
  /^Connection is closed\.$/, // ioredis
  /^Stream isn't writeable/, // ioredis without the offline queue
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
  /^Command timed out$/, // ioredis commandTimeout
  /^None of startup nodes is available$/, // ioredis Cluster
  /^Failed to refresh slots cache/, // ioredis Cluster
  // Redis replies while a failover moves a primary: the command was refused, not run (a slot served elsewhere now, a
  // cluster without a quorum, a replica or a node still loading its data).
  /^(MOVED|ASK) \d+ /,
  /^(CLUSTERDOWN|TRYAGAIN|LOADING|READONLY|MASTERDOWN) /,
];

/** Whether an error (or what it wraps: TypeORM's driverError, a cause, an AggregateError's errors) says a dependency is away. */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  // Duck-typed, not `instanceof Error`: errors from Node's core come from another realm under test runners.
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  if (error instanceof DependencyUnavailableException) return true;
  const { name, message, code, driverError, cause, errors } = error as Record<string, unknown>;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_STATES.test(code))) return true;
  if (name === 'MaxRetriesPerRequestError' || name === 'ClusterAllFailedError') return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  const wrapped = [driverError, cause, ...(Array.isArray(errors) ? (errors as unknown[]) : [])];
  return wrapped.some((inner) => isDependencyUnavailable(inner, depth + 1));
}
