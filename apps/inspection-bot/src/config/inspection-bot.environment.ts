import { resolve } from 'node:path';
import { Expose } from 'class-transformer';
import {
  IsBoolean,
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
import { CommonEnvironment, ToBoolean, ToInteger } from '@fieldops/platform';

const HTTP_URL = { protocols: ['http', 'https'], require_tld: false, require_protocol: true };
const NO_TRAILING_SLASH = /^[^?#]*[^/?#]$/;
const LOCAL_CONNECTOR = 'http://127.0.0.1:8020';

/**
 * inspection-bot's environment (docs/operate/configuration.md). The botbuilder keys keep botbuilder's own
 * names (`MicrosoftAppId`, `ToChannelFromBotLoginUrl` …): this object is what `ConfigurationBotFrameworkAuthentication`
 * reads, as a generated bot reads `process.env`. Their defaults point at a connector-gateway on this machine.
 */
export class InspectionBotEnvironment extends CommonEnvironment {
  /** HTTP port (the platform configuration's `messagingEndpoint` points here). */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) INSPECTION_BOT_PORT: number = 3978;

  /**
   * Where people open the chat page (printed at start-up).
   *
   * @default `http://localhost:<port>`
   */
  @Expose() @IsOptional() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) INSPECTION_BOT_PUBLIC_URL?: string;

  /** Locale of the chat page and replies when neither the browser nor the activity names one (`en`, `zh-Hans`). */
  @Expose() @IsIn(['en', 'zh-Hans']) INSPECTION_BOT_DEFAULT_LOCALE: 'en' | 'zh-Hans' = 'en';

  /**
   * Update an item card once it is answered (updateActivity: the answer shown, no more buttons). The connector
   * delivers the update as a `messageUpdate` activity (`replyToId` = the card message), which the chat page applies
   * in place; other Direct Line clients that do not apply it keep the card as it was. `false` leaves cards as sent.
   */
  @Expose() @ToBoolean() @IsBoolean() INSPECTION_BOT_UPDATE_ANSWERED_CARDS: boolean = true;

  /**
   * The chat page opens the person's home conversation with the bot (relay-gateway's `tokens/generate` with
   * `homeConversation`), the one the bot's proactive cards to them go to, so a card sent while the page was closed is
   * waiting there (shown as new). `false`: every new token is for a new conversation (a welcome each time; proactive
   * cards then go to a conversation no page opens).
   */
  @Expose() @ToBoolean() @IsBoolean() INSPECTION_BOT_HOME_CONVERSATION: boolean = true;

  /**
   * The phrasebook the local translator serves the bot's own strings from.
   *
   * @default `apps/inspection-bot/phrasebook.yaml`
   */
  @Expose() @IsString() INSPECTION_BOT_PHRASEBOOK: string = resolve(__dirname, '..', '..', 'phrasebook.yaml');

  // --- translation (connector-gateway's Translator v3 endpoint, through @fieldops/ai-credentials) -------------
  /** The Translator endpoint (connector-gateway's base URL). Unset: the bot's phrasebook file, read locally. */
  @Expose() @IsOptional() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) INSPECTION_BOT_TRANSLATOR_URL?: string;

  /** How the bot authenticates there: a key, a key + region, or a key exchanged for 10-minute tokens. */
  @Expose()
  @IsIn(['key', 'key-and-region', 'exchanged-token'])
  INSPECTION_BOT_TRANSLATOR_AUTH: 'key' | 'key-and-region' | 'exchanged-token' = 'exchanged-token';

  /** The AI resource's key; required with INSPECTION_BOT_TRANSLATOR_URL. */
  @Expose()
  @ValidateIf(
    (environment: InspectionBotEnvironment) => environment.INSPECTION_BOT_TRANSLATOR_URL !== undefined,
  )
  @IsString()
  @MinLength(16)
  INSPECTION_BOT_TRANSLATOR_KEY?: string;

  /** The AI resource's second key (the fail-over). */
  @Expose() @IsOptional() @IsString() @MinLength(16) INSPECTION_BOT_TRANSLATOR_KEY_2?: string;

  /** The AI resource's region (key-and-region). */
  @Expose() @IsOptional() @IsString() @MinLength(1) INSPECTION_BOT_TRANSLATOR_REGION?: string;

  // --- inspection-api, with the bot's own service account -----------------------------------------------------
  /** Base URL of inspection-api (its routes are under `/api`). */
  @Expose() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) INSPECTION_API_URL: string = 'http://127.0.0.1:8000';

  /** The bot's service account in inspection-api. */
  @Expose() @IsString() @MinLength(1) INSPECTION_BOT_API_USERNAME: string = 'inspection-bot';

  /** The service account's password (required: the bot cannot record anything without it). */
  @Expose() @IsString() @MinLength(1) INSPECTION_BOT_API_PASSWORD: string;

  // --- the chat page's Direct Line token route --------------------------------------------------------------------
  /** relay-gateway's base URL as this server reaches it (tokens are generated there). */
  @Expose() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) INSPECTION_BOT_RELAY_URL: string =
    'http://127.0.0.1:8010';

  /** relay-gateway's base URL as browsers reach it (Web Chat's `domain` is `<this>/v3/directline`). Unset: INSPECTION_BOT_RELAY_URL. */
  @Expose()
  @IsOptional()
  @IsUrl(HTTP_URL)
  @Matches(NO_TRAILING_SLASH)
  INSPECTION_BOT_RELAY_PUBLIC_URL?: string;

  /** The bot's Direct Line secret (platform configuration `directLine.secrets`); never sent to browsers. */
  @Expose() @IsString() @MinLength(16) INSPECTION_BOT_DIRECTLINE_SECRET: string;

  /**
   * The secret inspection-api signs the notifications it hands the bot with (`POST /api/notifications`; the
   * Standard Webhooks scheme): inspection-api's INSPECTION_CHAT_NOTIFICATIONS_SECRET, `whsec_` and base64 of 24 to 64
   * bytes. Unset: the bot sends no notifications (the route answers 404).
   */
  @Expose()
  @IsOptional()
  @Matches(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, {
    message: 'INSPECTION_BOT_NOTIFICATIONS_SECRET must be whsec_ and base64 of 24 to 64 bytes',
  })
  INSPECTION_BOT_NOTIFICATIONS_SECRET?: string;

  /** connector-gateway's base URL the bot starts proactive conversations at (its `serviceUrl`). Unset: OAuthUrl. */
  @Expose() @IsOptional() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) INSPECTION_BOT_CONNECTOR_URL?: string;

  /** The bot's id in the platform configuration, named in proactive conversations when the bot has no app id. */
  @Expose() @IsString() @MinLength(1) INSPECTION_BOT_PLATFORM_ID: string = 'inspection-bot';

  // --- the chat page's sign-in (a sealed session cookie) ---------------------------------------------------------
  /** Key (32+ characters) sealing the session cookie; unset: a random key per process (sessions end on restart). */
  @Expose() @IsOptional() @IsString() @MinLength(32) INSPECTION_BOT_SESSION_SECRET?: string;

  /** How long a session lasts without activity; every renewal (activity on the page) starts it again. */
  @Expose() @ToInteger() @IsInt() @Min(60) @Max(604_800) INSPECTION_BOT_SESSION_TTL_SECONDS: number = 28_800;

  /** Refused passwords allowed per (account, client address) in 15 minutes (then 429 with Retry-After for that pair). */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1000) INSPECTION_BOT_SIGN_IN_ATTEMPTS_PER_ACCOUNT: number = 5;

  /** Refused passwords allowed per client address in 15 minutes, whatever the accounts. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(10_000) INSPECTION_BOT_SIGN_IN_ATTEMPTS_PER_ADDRESS: number =
    20;

  /** Direct Line tokens one session may obtain per minute. */
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(1000) INSPECTION_BOT_TOKENS_PER_SESSION_MINUTE: number = 6;

  // --- botbuilder (ConfigurationBotFrameworkAuthentication), connector-gateway's endpoints ------------------------
  /**
   * The bot's app id as registered in the platform configuration. Empty: anonymous (the platform configuration
   * registers the bot with `anonymous: true`).
   */
  @Expose() @IsString() MicrosoftAppId: string = '';

  /**
   * The bot's app password as registered in the platform configuration. With an app id and no MicrosoftAppType: msal
   * with the connector's known-authority metadata (password mode).
   */
  @Expose() @IsString() MicrosoftAppPassword: string = '';

  /** Unset / `MultiTenant` / `SingleTenant`: password; `UserAssignedMsi`: the connector's managed-identity endpoint. */
  @Expose() @IsOptional() @IsIn(['MultiTenant', 'SingleTenant', 'UserAssignedMsi']) MicrosoftAppType?: string;

  /** The tenant the bot asks connector-gateway for tokens in (one of its CONNECTOR_TOKEN_TENANTS). */
  @Expose() @IsString() MicrosoftAppTenantId: string = 'botframework.com';

  /** The connector's tenant authority: `<connector>/<tenant>` (its OpenID configuration is read from here). */
  @Expose() @IsUrl(HTTP_URL) @Matches(NO_TRAILING_SLASH) ToChannelFromBotLoginUrl: string =
    `${LOCAL_CONNECTOR}/botframework.com`;

  /** The scope of the bot's tokens for the connector (one of connector-gateway's CONNECTOR_TOKEN_SCOPES, without `/.default`). */
  @Expose() @IsString() @MinLength(1) ToChannelFromBotOAuthScope: string = 'https://api.botframework.com';

  /** = the `iss` connector-gateway gives this bot's tokens (CONNECTOR_BOT_TOKEN_ISSUER unless set per bot); `npm start` passes it. */
  @Expose() @IsString() @MinLength(1) ToBotFromChannelTokenIssuer: string = 'https://api.botframework.com';

  /** The OpenID metadata the channel's tokens to the bot are validated with (connector-gateway's). */
  @Expose() @IsUrl(HTTP_URL) ToBotFromChannelOpenIdMetadataUrl: string =
    `${LOCAL_CONNECTOR}/v1/.well-known/openidconfiguration`;

  /** The OpenID metadata of the Emulator's tokens: connector-gateway's as well (botbuilder reads every endpoint key). */
  @Expose() @IsUrl(HTTP_URL) ToBotFromEmulatorOpenIdMetadataUrl: string =
    `${LOCAL_CONNECTOR}/v1/.well-known/openidconfiguration`;

  /** botbuilder's user-token service URL: connector-gateway's base URL. */
  @Expose() @IsUrl(HTTP_URL) OAuthUrl: string = LOCAL_CONNECTOR;

  /** The `callerId` botbuilder stamps on the activities the bot receives. */
  @Expose() @IsString() @MinLength(1) CallerId: string = 'urn:botframework:fieldops';
}

/** The public base URL of the chat page. */
export function chatPageUrl(environment: InspectionBotEnvironment, port: number): string {
  return environment.INSPECTION_BOT_PUBLIC_URL ?? `http://localhost:${port}`;
}
