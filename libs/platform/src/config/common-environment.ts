import { Expose } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { JSON_MAX_DEPTH } from '../input/json-input';
import { ToInteger } from './environment-transforms';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings every service reads. Each app's environment class extends this one. */
export class CommonEnvironment {
  /** Interface the HTTP server binds to. */
  @Expose() @IsString() HOST: string = '0.0.0.0';

  /** The least severe level of the log lines written (`silent`: none). */
  @Expose() @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';

  /** How long a graceful shutdown may drain in-flight requests before the process gives up. */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(600_000) SHUTDOWN_TIMEOUT_MS: number = 10_000;

  /**
   * How long a client may take to send a request's headers; then 408 and the connection is closed. Idle
   * keep-alive connections are not affected (they stay 65 s).
   */
  @Expose() @ToInteger() @IsInt() @Min(1_000) @Max(300_000) HTTP_HEADERS_TIMEOUT_MS: number = 20_000;

  /**
   * How deeply a JSON body may nest objects and arrays; deeper is a 400 parse error before the body is parsed
   * (default 64, the MaxDepth of the Bot Framework services' own JSON parsers).
   */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1_000) JSON_MAX_DEPTH: number = JSON_MAX_DEPTH;

  /**
   * Which proxies' X-Forwarded-* headers to believe (Express `trust proxy` syntax: `loopback`,
   * `10.0.0.0/8, 127.0.0.1`, or a hop count); `none` trusts no proxy.
   */
  @Expose() @IsOptional() @IsString() TRUST_PROXY?: string = 'loopback';

  /**
   * Serve `/metrics` on this port only (absent from the app port), for a port that no Service, Ingress or proxy
   * exposes; 0 picks a free port (tests). Unset: `/metrics` is on the app port.
   */
  @Expose() @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(65_535) METRICS_PORT?: number;

  /** When set, `/metrics` (on either port) answers only `Authorization: Bearer <token>`; 401 otherwise. */
  @Expose()
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_BEARER_TOKEN must be at least 16 characters' })
  METRICS_BEARER_TOKEN?: string;
}
