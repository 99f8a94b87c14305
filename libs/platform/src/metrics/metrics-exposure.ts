import { createHash, timingSafeEqual } from 'node:crypto';

/** How a service's `/metrics` is exposed: on the app port or a port of its own, open or behind a bearer token. */
export interface MetricsExposureOptions {
  /** `METRICS_BEARER_TOKEN`: scrapes must send `Authorization: Bearer <token>` (401 otherwise). */
  bearerToken?: string;
  /** `METRICS_PORT`: serve `/metrics` only on this port (absent from the app port); 0 picks a free port (tests). */
  port?: number;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The one rule for who may read `/metrics` and where, used by the app port's route and the separate metrics port.
 * The token is compared in constant time (digests of equal length, `timingSafeEqual`).
 */
export class MetricsExposure {
  private tokenDigest: Buffer | undefined;
  private separatePort = false;

  configure(options: MetricsExposureOptions): void {
    this.tokenDigest = options.bearerToken ? digest(options.bearerToken) : undefined;
    this.separatePort = options.port !== undefined;
  }

  /** Whether the app port serves `/metrics` (not when a separate metrics port is configured). */
  get servedOnAppPort(): boolean {
    return !this.separatePort;
  }

  /** Whether a request with this `Authorization` header may read the metrics. */
  authorizes(authorization: string | undefined): boolean {
    if (!this.tokenDigest) return true;
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    return token !== undefined && timingSafeEqual(digest(token), this.tokenDigest);
  }
}

/** The challenge sent with a 401 from `/metrics`. */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';
