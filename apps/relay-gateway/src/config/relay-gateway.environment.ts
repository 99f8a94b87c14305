import { Expose, Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { ConversationStateEnvironment } from '@fieldops/conversation-store';
import { type DerivesSettings, LOCAL_HOSTS, ToInteger, toHostList } from '@fieldops/platform';

/** RELAY_BOT_SERVICE_URL's default: where connector-gateway's settings in the same environment put it. */
export function defaultBotServiceUrl(connector: {
  CONNECTOR_PUBLIC_URL?: string;
  CONNECTOR_GATEWAY_PORT?: string;
}): string {
  const publicUrl = connector.CONNECTOR_PUBLIC_URL;
  if (publicUrl) return publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  // Port 0 (any free port, in tests) names no address to derive from: the default port, and the start-up probe.
  const port =
    connector.CONNECTOR_GATEWAY_PORT === undefined || connector.CONNECTOR_GATEWAY_PORT === '0'
      ? '8020'
      : connector.CONNECTOR_GATEWAY_PORT;
  return `http://localhost:${port}/`;
}

/** relay-gateway's environment (docs/operate/configuration.md). */
export class RelayGatewayEnvironment extends ConversationStateEnvironment implements DerivesSettings {
  /** HTTP port. */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) RELAY_GATEWAY_PORT: number = 8010;

  /**
   * The platform configuration file (YAML): bots and their Direct Line channel settings (`npm start`:
   * `infra/config/platform.example.yaml`).
   */
  @Expose() @IsString() @Matches(/\S/) PLATFORM_CONFIG: string;

  /** This gateway's public base URL (scheme and host the clients see); unset: from the request and trusted X-Forwarded-*. */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  RELAY_PUBLIC_URL?: string;

  /**
   * Host names this gateway builds absolute URLs for when RELAY_PUBLIC_URL is unset (Django's ALLOWED_HOSTS patterns,
   * comma-separated: `.example.com` = the domain and its subdomains, `*` = any). A request naming another host (Host,
   * or X-Forwarded-Host from a trusted proxy) that asks for such a URL gets 400. Default: local names only. With
   * RELAY_PUBLIC_URL set, URLs are built from it and any host is answered.
   */
  @Expose()
  @Transform(toHostList)
  @IsString({ each: true })
  @ArrayNotEmpty()
  RELAY_ALLOWED_HOSTS: string[] = [...LOCAL_HOSTS];

  /**
   * The `serviceUrl` stamped on activities for the bot (connector-gateway's public URL, trailing slash). Unset: it
   * follows connector-gateway's settings in this environment, CONNECTOR_PUBLIC_URL, else
   * `http://localhost:${CONNECTOR_GATEWAY_PORT}/` (8020), so moving the connector moves where bots reply.
   *
   * @default follows connector-gateway's settings
   */
  @Expose()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  RELAY_BOT_SERVICE_URL: string;

  /** Read only to derive RELAY_BOT_SERVICE_URL's default (connector-gateway's own setting). */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  CONNECTOR_PUBLIC_URL?: string;

  /** Read only to derive RELAY_BOT_SERVICE_URL's default (connector-gateway's own setting). */
  @Expose() @IsOptional() @Matches(/^\d{1,5}$/) CONNECTOR_GATEWAY_PORT?: string;

  deriveSettings(): void {
    this.RELAY_BOT_SERVICE_URL ??= defaultBotServiceUrl(this);
  }

  /**
   * How activities reach bots: `connector` through connector-gateway (signed; needs RELAY_CONNECTOR_URL and
   * RELAY_CONNECTOR_KEY), `direct` POSTed to the messaging endpoint unsigned. Unset: `connector` when
   * RELAY_CONNECTOR_URL is set, else `direct`.
   */
  @Expose() @IsOptional() @IsIn(['connector', 'direct']) RELAY_BOT_DELIVERY?: 'connector' | 'direct';

  /**
   * connector-gateway's internal base URL for deliveries (e.g. `http://connector-gateway:8020`); `npm start` points
   * it at the connector it starts.
   */
  @Expose()
  @ValidateIf(
    (environment: RelayGatewayEnvironment) =>
      environment.RELAY_BOT_DELIVERY === 'connector' || environment.RELAY_CONNECTOR_URL !== undefined,
  )
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  RELAY_CONNECTOR_URL?: string;

  /**
   * connector-gateway's CONNECTOR_INTERNAL_KEY; required in `connector` mode (`npm start`: a random key shared with
   * the connector it starts).
   */
  @Expose()
  @ValidateIf((environment: RelayGatewayEnvironment) => environment.botDeliveryMode() === 'connector')
  @IsString()
  @MinLength(32)
  RELAY_CONNECTOR_KEY?: string;

  /** The effective RELAY_BOT_DELIVERY. */
  botDeliveryMode(): 'connector' | 'direct' {
    return this.RELAY_BOT_DELIVERY ?? (this.RELAY_CONNECTOR_URL !== undefined ? 'connector' : 'direct');
  }

  /**
   * `direct` delivery: deadline for the bot's HTTP answer, then 504 `BotError`; `connector`: the same plus 5 s for
   * the call to the connector.
   */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(120_000) BOT_DELIVERY_TIMEOUT_MS: number = 15_000;

  /** Largest activity (serialized JSON, bytes) a client may send; larger: 413 MessageSizeTooBig. */
  @Expose() @ToInteger() @IsInt() @Min(1024) @Max(16_777_216) RELAY_MAX_ACTIVITY_BYTES: number = 262_144;

  /** Largest upload request (bytes); larger: 413 MessageSizeTooBig. */
  @Expose() @ToInteger() @IsInt() @Min(1024) @Max(104_857_600) RELAY_MAX_UPLOAD_BYTES: number = 4_194_304;

  /** Most files in one upload request; more: 413 MessageSizeTooBig. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1000) RELAY_MAX_UPLOAD_FILES: number = 10;

  /** The window of the upload quotas below, in seconds. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(86_400) RELAY_UPLOAD_QUOTA_WINDOW_SECONDS: number = 3600;

  /**
   * Bytes of files one conversation may upload per window (shared by every relay through Redis with REDIS_URL); over:
   * 429 TooManyRequests (413 for one larger upload); 0 disables.
   */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_UPLOAD_BYTES_PER_CONVERSATION: number = 20_971_520;

  /** Files one conversation may upload per window; 0 disables. */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_UPLOAD_FILES_PER_CONVERSATION: number = 50;

  /** Bytes of files one token or secret (a secret spans its bot's conversations) may upload per window; 0 disables. */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_UPLOAD_BYTES_PER_TOKEN: number = 104_857_600;

  /** Files one token or secret may upload per window; 0 disables. */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_UPLOAD_FILES_PER_TOKEN: number = 250;

  /**
   * WebSocket streams one conversation may hold open on this instance (a person's tabs and devices, a reconnect that
   * overlaps the old stream); one more upgrade is refused with 429 TooManyRequests.
   */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(10_000) RELAY_MAX_STREAMS_PER_CONVERSATION: number = 10;

  /** Interval of the empty keep-alive frames on WebSocket streams. */
  @Expose() @ToInteger() @IsInt() @Min(1000) @Max(600_000) RELAY_STREAM_KEEPALIVE_MS: number = 15_000;

  /** Reconnect without a watermark: `all` replays the retained log (what the real service does), `new` only later activities (the docs). */
  @Expose() @IsIn(['all', 'new']) RELAY_RECONNECT_REPLAY: 'all' | 'new' = 'all';

  /**
   * Requests per minute per token or secret, for all instances together (Redis) or per process; over: 429
   * TooManyRequests with Retry-After; 0 disables.
   */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_RATE_LIMIT_PER_TOKEN: number = 600;

  /** Sends (activities and uploads) per minute per conversation, for all instances together (Redis) or per process; 0 disables. */
  @Expose() @ToInteger() @IsInt() @Min(0) RELAY_RATE_LIMIT_PER_CONVERSATION: number = 300;
}
