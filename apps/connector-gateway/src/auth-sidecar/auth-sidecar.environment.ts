import { Expose } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { ToInteger } from '@fieldops/platform';

/** The addresses the sidecar may listen on: loopback only (the agent beside it, in its pod or on its host). */
export const AUTH_SIDECAR_HOSTS = ['127.0.0.1', '::1', 'localhost'] as const;

/**
 * The Entra auth sidecar of one bot (`auth-sidecar` command): what it listens on and the one credential it holds.
 * Read once at start-up.
 */
export class AuthSidecarEnvironment {
  /** Loopback address the sidecar listens on; the agent reaches it as `SIDECAR_URL=http://localhost:<port>`. */
  @Expose() @IsIn(AUTH_SIDECAR_HOSTS) AUTH_SIDECAR_HOST: string = '127.0.0.1';

  /** Port the sidecar listens on (5178: the Agents SDK's default `SIDECAR_URL`). */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65_535) AUTH_SIDECAR_PORT: number = 5178;

  /** connector-gateway's base URL, whose managed-identity endpoint (`/msi/token`) issues the bot's tokens. */
  @Expose()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  AUTH_SIDECAR_CONNECTOR_URL!: string;

  /** The bot's own `identityHeader` from the platform configuration: the one credential the sidecar holds. */
  @Expose() @IsString() @MinLength(16) AUTH_SIDECAR_IDENTITY_HEADER!: string;

  /** How long one token request to the connector may take before the sidecar answers 503. */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(120_000) AUTH_SIDECAR_TIMEOUT_MS: number = 10_000;
}
