import { Expose } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { CommonEnvironment, ToInteger } from '@fieldops/platform';

/** relay-gateway's environment (see the README's table). */
export class RelayGatewayEnvironment extends CommonEnvironment {
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) RELAY_GATEWAY_PORT: number = 8010;

  /** Redis for the activity bus shared by every relay and connector instance; unset: in-process bus (one process only). */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL?: string;

  /** Prefix of the bus's Redis channels, so several platforms can share one Redis. */
  @Expose() @IsString() BUS_CHANNEL_PREFIX: string = 'fieldops:conversation:';
}
