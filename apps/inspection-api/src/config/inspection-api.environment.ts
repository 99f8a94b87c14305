import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Expose } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MinLength, Min, IsBoolean } from 'class-validator';
import { CommonEnvironment, ToBoolean, ToInteger } from '@fieldops/platform';

/** The monorepo's root (the package.json that declares workspaces); falls back to the working directory. */
function repositoryRoot(start: string): string {
  for (let directory = start; directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object))
      return directory;
  }
  return process.cwd();
}

/** inspection-api's environment (see the README's table). */
export class InspectionApiEnvironment extends CommonEnvironment {
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) INSPECTION_API_PORT: number = 8000;

  /** PostgreSQL connection URL. Unset: an embedded PostgreSQL server is started with its data in EMBEDDED_POSTGRES_DIR. */
  @Expose() @IsOptional() @IsString() DATABASE_URL?: string;

  @Expose() @ToInteger() @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /** Run pending migrations at start-up (under an advisory lock, so replicas may start together). */
  @Expose() @ToBoolean() @IsBoolean() DATABASE_MIGRATIONS_RUN: boolean = true;

  @Expose() @IsString() EMBEDDED_POSTGRES_DIR: string = resolve(
    repositoryRoot(__dirname),
    '.data',
    'postgres',
  );

  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) EMBEDDED_POSTGRES_PORT: number = 54329;

  /**
   * HMAC key that signs access and refresh tokens (HS256, as simplejwt does with SECRET_KEY).
   * Unset: a random key per process, with a warning (tokens die with the process).
   */
  @Expose() @IsOptional() @IsString() @MinLength(32) INSPECTION_JWT_SIGNING_KEY?: string;
}
