import { Expose } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { LOG_LEVELS, type LogLevel } from '@fieldops/platform';

/** What the launcher itself reads; every app validates its own variables on start. */
export class AllInOneEnvironment {
  @Expose() @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';
  @Expose() @IsOptional() @IsString() DATABASE_URL?: string;
  @Expose() @IsOptional() @IsString() REDIS_URL?: string;
}
