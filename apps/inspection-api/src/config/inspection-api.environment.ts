import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Expose, Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsTimeZone,
  Max,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { CommonEnvironment, LOCAL_HOSTS, ToBoolean, ToInteger, toHostList } from '@fieldops/platform';
import { IsRedisUrl } from '@fieldops/redis-connection';
import { AreNetworks } from '../webhooks/webhook-address';

/** How the connection to the SMTP server is secured (INSPECTION_SMTP_TLS). */
export const SMTP_TLS_MODES = ['starttls', 'implicit', 'opportunistic', 'none'] as const;
export type SmtpTlsMode = (typeof SMTP_TLS_MODES)[number];

/** The monorepo's root (the package.json that declares workspaces); falls back to the working directory. */
function repositoryRoot(start: string): string {
  for (let directory = start; directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object))
      return directory;
  }
  return process.cwd();
}

/** A comma-separated list, blanks dropped. */
const CommaList = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '')
      : value,
  );

const withOidc = (environment: InspectionApiEnvironment): boolean =>
  environment.INSPECTION_OIDC_ISSUER !== undefined;

/** inspection-api's environment (docs/operate/configuration.md). */
export class InspectionApiEnvironment extends CommonEnvironment {
  /** HTTP port. */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) INSPECTION_API_PORT: number = 8000;

  /** PostgreSQL connection URL. Unset: an embedded PostgreSQL server is started with its data in EMBEDDED_POSTGRES_DIR. */
  @Expose() @IsOptional() @IsString() DATABASE_URL?: string;

  /** Connections in the PostgreSQL pool. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /** Run pending migrations at start-up (under an advisory lock, so replicas may start together). */
  @Expose() @ToBoolean() @IsBoolean() DATABASE_MIGRATIONS_RUN: boolean = true;

  /**
   * Data directory of the embedded PostgreSQL server (kept between runs).
   *
   * @default `<repo>/.data/postgres`
   */
  @Expose() @IsString() EMBEDDED_POSTGRES_DIR: string = resolve(
    repositoryRoot(__dirname),
    '.data',
    'postgres',
  );

  /** Port of the embedded PostgreSQL server (on 127.0.0.1). */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) EMBEDDED_POSTGRES_PORT: number = 54329;

  /**
   * HMAC key that signs access and refresh tokens (HS256, as simplejwt does with SECRET_KEY).
   * Unset: a random key per process, with a warning (tokens die with the process).
   */
  @Expose() @IsOptional() @IsString() @MinLength(32) INSPECTION_JWT_SIGNING_KEY?: string;

  /** Lifetime of access tokens in seconds (simplejwt's ACCESS_TOKEN_LIFETIME, 5 minutes). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(31_536_000) INSPECTION_ACCESS_TOKEN_LIFETIME_SECONDS: number =
    300;

  /** Lifetime of refresh tokens in seconds (simplejwt's REFRESH_TOKEN_LIFETIME, 1 day). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(31_536_000) INSPECTION_REFRESH_TOKEN_LIFETIME_SECONDS: number =
    86_400;

  /**
   * The first user's name: the user is created at start-up, with INSPECTION_ADMIN_PASSWORD, when no user of that
   * name exists (set both or neither).
   */
  @Expose() @IsOptional() @IsString() @MinLength(1) @MaxLength(150) INSPECTION_ADMIN_USERNAME?: string;

  /** The first user's password (with INSPECTION_ADMIN_USERNAME). */
  @Expose() @IsOptional() @IsString() @MinLength(1) INSPECTION_ADMIN_PASSWORD?: string;

  /** Default number of results per page of devices, plans and records. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(10_000) INSPECTION_PAGE_SIZE: number = 20;

  /** Largest `page_size` a client may ask for (larger values are clamped to it). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(10_000) INSPECTION_MAX_PAGE_SIZE: number = 100;

  /** Largest JSON or form-encoded request body, in bytes (413 beyond). Django's default: 2.5 MB. */
  @Expose() @ToInteger() @IsInt() @Min(1024) @Max(1_073_741_824) INSPECTION_MAX_BODY_BYTES: number =
    2_621_440;

  /** Largest record photo, in bytes (413 beyond). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1_073_741_824) INSPECTION_MAX_PHOTO_BYTES: number = 10_485_760;

  /** Largest record attachment, in bytes (413 beyond). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1_073_741_824) INSPECTION_MAX_ATTACHMENT_BYTES: number =
    10_485_760;

  /**
   * Directory where uploaded photos and attachments are kept (served back under `/media/`).
   *
   * @default `<repo>/.data/media`
   */
  @Expose() @IsString() @MinLength(1) INSPECTION_MEDIA_ROOT: string = resolve(
    repositoryRoot(__dirname),
    '.data',
    'media',
  );

  /** Redis shared by every replica for the login throttle; unset: the throttle's counters live in PostgreSQL. */
  @Expose()
  @IsOptional()
  @IsRedisUrl()
  REDIS_URL?: string;

  /** Prefix of the login throttle's Redis keys (several platforms can share one Redis). */
  @Expose() @IsString() INSPECTION_RATE_LIMIT_KEY_PREFIX: string = 'fieldops:inspection:rate:';

  /**
   * Refused passwords per user name per window (from anywhere) after which that name's logins are answered after a
   * growing delay (never refused); 0 disables the delay.
   */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(1_000_000) INSPECTION_LOGIN_FAILURES_PER_USERNAME: number = 5;

  /** Refused passwords per (user name, client address) per window, then 429 for that pair only; 0 disables. */
  @Expose()
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  INSPECTION_LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS: number = 5;

  /** Longest delay of a user name's logins (1 s, doubling with each refused password past the threshold). */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(60) INSPECTION_LOGIN_DELAY_MAX_SECONDS: number = 16;

  /** Failed logins allowed per client address per window (a shared NAT sends many users); 0 disables. */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(1_000_000) INSPECTION_LOGIN_FAILURES_PER_ADDRESS: number = 30;

  /** The login throttle's window, in seconds. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(86_400) INSPECTION_LOGIN_THROTTLE_WINDOW_SECONDS: number = 600;

  /**
   * Accounts (user names, comma-separated) that exchange other people's passwords at `POST /api/token/` from their
   * own address and may name each person's address in `X-FieldOps-Client-Address` with their bearer token, so the
   * login throttle counts the person's address rather than the service's: the inspection bot's service account.
   * Empty: nobody.
   */
  @Expose()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '')
      : value,
  )
  @IsString({ each: true })
  INSPECTION_LOGIN_ADDRESS_FORWARDERS: string[] = ['inspection-bot'];

  /**
   * Service accounts (user names, comma-separated): accounts of software rather than people, the inspection bot's
   * (`INSPECTION_BOT_API_USERNAME`). They are left out of `GET /api/users/` (listed with `?kind=service`), show
   * `"kind":"service"`, and cannot be deactivated, given another role or deleted through the API (the users CLI
   * still manages them). Empty: none.
   */
  @Expose()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '')
      : value,
  )
  @IsString({ each: true })
  INSPECTION_SERVICE_ACCOUNTS: string[] = ['inspection-bot'];

  /**
   * How long an `Idempotency-Key` of a record write is kept (and a repeat replays the first answer), in hours;
   * at least 24.
   */
  @Expose() @ToInteger() @IsInt() @Min(24) @Max(8760) INSPECTION_IDEMPOTENCY_KEY_HOURS: number = 24;

  /**
   * The IANA time zone whose calendar days, ISO weeks and months the due checks and the statistics count in
   * (`Asia/Shanghai`, `Europe/Berlin` …). Validated at start-up.
   */
  @Expose() @IsString() @IsTimeZone() INSPECTION_TIME_ZONE: string = 'UTC';

  /**
   * The supervisor console's built files (apps/inspection-console/dist), served at `/console/` on the API's origin
   * (hashed assets cached for a year, `index.html` revalidated). Unset: no console here (compose and Kubernetes serve
   * it from nginx); `npm start` sets it to the console's `dist/`.
   */
  @Expose() @IsOptional() @IsString() @MinLength(1) INSPECTION_CONSOLE_DIR?: string;

  /**
   * Django's ALLOWED_HOSTS, comma-separated: host names the API answers for (`.example.com` = the domain and its
   * subdomains, `*` = any). Others get 400. Default: what Django allows in DEBUG mode, local names only.
   */
  @Expose()
  @Transform(toHostList)
  @IsString({ each: true })
  @ArrayNotEmpty()
  INSPECTION_ALLOWED_HOSTS: string[] = [...LOCAL_HOSTS];

  /**
   * Public base URL of the API (scheme and host clients use); when set, pagination links and media URLs are built
   * from it instead of the request, and its host is allowed. Unset: the request's, honouring trusted X-Forwarded-*.
   */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @Matches(/^[^?#]*[^/?#]$/, {
    message: 'INSPECTION_PUBLIC_URL must have no trailing slash, query or fragment',
  })
  INSPECTION_PUBLIC_URL?: string;

  /**
   * Run the event runner (outbox dispatch, webhook deliveries, scheduled events) in this process. Off: the API still
   * writes events to the outbox, and a replica with the runner on (or this one after a restart with it on) delivers
   * them. `/readyz` shows the runner as the advisory check `events` when it is on.
   */
  @Expose() @ToBoolean() @IsBoolean() INSPECTION_EVENTS_RUNNER: boolean = true;

  /** How often each replica looks for events not yet handed to the job runner (pg-boss), in milliseconds. */
  @Expose() @ToInteger() @IsInt() @Min(50) @Max(3_600_000) INSPECTION_EVENTS_POLL_MS: number = 1000;

  /**
   * How often the event runner's schedule looks for checks that fell due or overdue and actions gone overdue (the
   * `check.due`, `check.overdue` and `action.overdue` events), in milliseconds. One replica does it per interval.
   */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(3_600_000) INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: number =
    60_000;

  /**
   * First delay before a failed webhook delivery is tried again, in seconds; each retry waits about twice as long
   * as the one before (pg-boss's exponential backoff, with jitter).
   */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(86_400) INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS: number = 60;

  /** How long a failing webhook delivery keeps being retried, in seconds (24 hours): the retries fill at least this. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(2_592_000) INSPECTION_WEBHOOK_RETRY_WINDOW_SECONDS: number =
    86_400;

  /** A webhook endpoint whose deliveries have failed for this long (seconds) without a success is disabled. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(2_592_000) INSPECTION_WEBHOOK_DISABLE_AFTER_SECONDS: number =
    86_400;

  /** The deadline of one webhook delivery attempt (connect, send, answer), in milliseconds. */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(60_000) INSPECTION_WEBHOOK_TIMEOUT_MS: number = 10_000;

  /**
   * Networks webhooks may reach besides public addresses (comma-separated CIDRs, `10.0.0.0/8,127.0.0.1/32`).
   * Loopback, private, link-local and other non-public addresses are refused otherwise, checked on the address
   * each connection resolves to. Empty: public addresses only.
   */
  @Expose()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((cidr) => cidr.trim())
          .filter((cidr) => cidr !== '')
      : value,
  )
  @AreNetworks()
  INSPECTION_WEBHOOK_ALLOWED_NETWORKS: string[] = [];

  /**
   * The operator's SMTP server (host name or address) that notification emails, the daily digest and emailed
   * reports are sent through. Unset: no email is sent (the other channels go on).
   */
  @Expose() @IsOptional() @IsString() @MinLength(1) INSPECTION_SMTP_HOST?: string;

  /** The SMTP server's port: 587 for submission with STARTTLS, 465 with `INSPECTION_SMTP_TLS=implicit`, 25 relay. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(65535) INSPECTION_SMTP_PORT: number = 587;

  /**
   * TLS to the SMTP server: `starttls` (upgrade the connection, and refuse to send if the server cannot),
   * `implicit` (TLS from the first byte, port 465), `opportunistic` (upgrade when the server offers it), `none`
   * (plain text, for a relay on a trusted network). Certificates are verified against the system's trusted CAs
   * (NODE_EXTRA_CA_CERTS adds a private CA).
   */
  @Expose() @IsIn(SMTP_TLS_MODES) INSPECTION_SMTP_TLS: SmtpTlsMode = 'starttls';

  /** The SMTP user name (AUTH PLAIN or LOGIN). Unset: no authentication. Set with INSPECTION_SMTP_PASSWORD. */
  @Expose()
  @ValidateIf((environment: InspectionApiEnvironment) => environment.INSPECTION_SMTP_PASSWORD !== undefined)
  @IsString({ message: 'INSPECTION_SMTP_USER is required with INSPECTION_SMTP_PASSWORD' })
  @MinLength(1)
  INSPECTION_SMTP_USER?: string;

  /** The SMTP password of INSPECTION_SMTP_USER. */
  @Expose()
  @ValidateIf((environment: InspectionApiEnvironment) => environment.INSPECTION_SMTP_USER !== undefined)
  @IsString({ message: 'INSPECTION_SMTP_PASSWORD is required with INSPECTION_SMTP_USER' })
  @MinLength(1)
  INSPECTION_SMTP_PASSWORD?: string;

  /** The sender of every email (`From`), an address or `Name <address>`; required with INSPECTION_SMTP_HOST. */
  @Expose()
  @ValidateIf(
    (environment: InspectionApiEnvironment) =>
      environment.INSPECTION_SMTP_HOST !== undefined || environment.INSPECTION_SMTP_FROM !== undefined,
  )
  @IsString({ message: 'INSPECTION_SMTP_FROM is required with INSPECTION_SMTP_HOST' })
  @MinLength(3)
  INSPECTION_SMTP_FROM?: string;

  /** The deadline of connecting to and of each exchange with the SMTP server, in milliseconds. */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(600_000) INSPECTION_SMTP_TIMEOUT_MS: number = 30_000;

  /**
   * The supervisor console's address as people open it (`https://fieldops.example.com/console/`), for the links
   * in notification emails. Unset: INSPECTION_PUBLIC_URL followed by `/console/`; neither: emails carry no links.
   */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  INSPECTION_CONSOLE_URL?: string;

  /**
   * Where notifications in the chat are handed to the inspection bot: its `POST /api/notifications` address
   * (`http://inspection-bot:3978/api/notifications`), an address the operator trusts (private networks allowed).
   * Unset: nothing is sent in the chat. Set with INSPECTION_CHAT_NOTIFICATIONS_SECRET.
   */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  INSPECTION_CHAT_NOTIFICATIONS_URL?: string;

  /**
   * The secret the hand-over to the bot is signed with, the Standard Webhooks way (`whsec_` + base64 of 24 to 64
   * random bytes; the bot's INSPECTION_BOT_NOTIFICATIONS_SECRET). Required with INSPECTION_CHAT_NOTIFICATIONS_URL.
   */
  @Expose()
  @ValidateIf(
    (environment: InspectionApiEnvironment) =>
      environment.INSPECTION_CHAT_NOTIFICATIONS_URL !== undefined ||
      environment.INSPECTION_CHAT_NOTIFICATIONS_SECRET !== undefined,
  )
  @Matches(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, {
    message:
      'INSPECTION_CHAT_NOTIFICATIONS_SECRET is required with INSPECTION_CHAT_NOTIFICATIONS_URL: whsec_ and base64 of 24 to 64 bytes',
  })
  INSPECTION_CHAT_NOTIFICATIONS_SECRET?: string;
  // --- sign-in through the company's OpenID Connect provider (docs/operate/sign-in.md) -------------------------

  /**
   * Issuer URL of the OpenID Connect provider people sign in with (discovery at
   * `{issuer}/.well-known/openid-configuration`). Set: `GET /api/oidc/login/` starts the authorization code flow
   * with PKCE; register `{public URL}/api/oidc/callback/` at the provider. Unset: local passwords only (then
   * INSPECTION_LOCAL_PASSWORDS cannot be off).
   */
  @Expose()
  @ValidateIf(
    (environment: InspectionApiEnvironment) =>
      withOidc(environment) || environment.INSPECTION_LOCAL_PASSWORDS === false,
  )
  @IsUrl(
    { protocols: ['http', 'https'], require_tld: false, require_protocol: true },
    {
      message:
        'INSPECTION_OIDC_ISSUER must be an http(s) URL (required when INSPECTION_LOCAL_PASSWORDS is off)',
    },
  )
  INSPECTION_OIDC_ISSUER?: string;

  /** The client id registered for inspection-api at the provider; required with INSPECTION_OIDC_ISSUER. */
  @Expose()
  @ValidateIf(withOidc)
  @IsString({ message: 'INSPECTION_OIDC_CLIENT_ID is required with INSPECTION_OIDC_ISSUER' })
  @MinLength(1)
  INSPECTION_OIDC_CLIENT_ID?: string;

  /** The client's secret (client_secret_basic). Unset: a public client (PKCE only). */
  @Expose() @IsOptional() @IsString() @MinLength(1) INSPECTION_OIDC_CLIENT_SECRET?: string;

  /** Scopes asked for, space- or comma-separated (`openid` is always asked for). */
  @Expose()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.split(/[\s,]+/).filter((scope) => scope !== '') : value,
  )
  @IsString({ each: true })
  INSPECTION_OIDC_SCOPES: string[] = ['openid', 'profile', 'email'];

  /** The provider's name on the sign-in buttons ("Sign in with …"). */
  @Expose() @IsString() @MinLength(1) @MaxLength(60) INSPECTION_OIDC_NAME: string = 'single sign-on';

  /**
   * The claim (ID token or userinfo) holding the person's groups or roles: a string or a list of strings; a dotted
   * path reaches into objects (`realm_access.roles` for Keycloak).
   */
  @Expose() @IsString() @MinLength(1) INSPECTION_OIDC_ROLE_CLAIM: string = 'groups';

  /** Values of the role claim (comma-separated) that make a person a supervisor. */
  @Expose() @CommaList() @IsString({ each: true }) INSPECTION_OIDC_SUPERVISOR_VALUES: string[] = [];

  /**
   * Values of the role claim (comma-separated) that make a person an inspector (a supervisor value wins). A
   * person with none of the values is refused; `*` lets every other person of the provider in as an inspector.
   */
  @Expose()
  @CommaList()
  @ValidateIf(withOidc)
  @ArrayNotEmpty({
    message:
      'INSPECTION_OIDC_INSPECTOR_VALUES needs at least one value with INSPECTION_OIDC_ISSUER (`*`: everybody)',
  })
  @IsString({ each: true })
  INSPECTION_OIDC_INSPECTOR_VALUES: string[] = [];

  /** The claim whose value becomes the user name of an account created at first sign-in. */
  @Expose() @IsString() @MinLength(1) INSPECTION_OIDC_USERNAME_CLAIM: string = 'preferred_username';

  /**
   * Let the first sign-in through the provider take over a local account of the same user name (moving a platform
   * from passwords to the provider). Off: such a sign-in is refused until the local account is renamed or removed.
   */
  @Expose() @ToBoolean() @IsBoolean() INSPECTION_OIDC_LINK_BY_USERNAME: boolean = false;

  /**
   * Origins (comma-separated, `https://chat.example.com`) besides the API's own that a sign-in may return to with
   * its one-time code: the chat page's. Everything else is refused.
   */
  @Expose()
  @CommaList()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }, { each: true })
  INSPECTION_OIDC_RETURN_ORIGINS: string[] = [];

  /**
   * Sign-in with a user name and password at `POST /api/token/`. Off: it answers 403 `password_sign_in_disabled`
   * for people, who sign in through the provider; the service accounts (INSPECTION_SERVICE_ACCOUNTS) keep theirs.
   */
  @Expose() @ToBoolean() @IsBoolean() INSPECTION_LOCAL_PASSWORDS: boolean = true;
}
