import { createHash, createPublicKey, type KeyObject, timingSafeEqual, X509Certificate } from 'node:crypto';
import { ConfigurationError } from '@fieldops/platform';
import { BOT_SDKS, type BotSdk, type OAuthConnectionConfig } from '@fieldops/platform-config';

/**
 * A certificate (or bare public key) a bot may sign RFC 7523 client assertions with. The assertion's
 * `x5t` header (base64url SHA-1 of the certificate's DER) or `x5t#S256` names it.
 */
export interface RegisteredCertificate {
  /** An X.509 certificate or an SPKI public key, PEM. */
  pem: string;
  /**
   * The SHA-1 thumbprint, as hex (what botbuilder's `CertificateThumbprint` holds) or base64url (`x5t`).
   * Computed from a certificate; required for a bare public key.
   */
  thumbprint?: string;
}

/**
 * One bot as the platform configuration registers it. This is the registry's whole input: plain data,
 * validated by `validateRegisteredBots`. Secrets arrive already resolved from their references.
 */
export interface RegisteredBot {
  /** The bot's handle in the platform configuration (owner of its conversations); defaults to `appId`. */
  id?: string;
  /**
   * The bot's Microsoft App Id (`MicrosoftAppId`): the token's `appid` and, towards the bot, `aud`. An anonymous
   * bot may leave it out (its `MicrosoftAppId` is empty); it then needs an `id`.
   */
  appId?: string;
  displayName: string;
  /** Where the gateway POSTs activities, e.g. `http://localhost:3978/api/messages`. */
  messagingEndpoint: string;
  /** The app password as an argon2 hash (`$argon2id$…`, PHC string). At most one of the two password fields. */
  appPasswordHash?: string;
  /** The app password in clear (from a secret reference). */
  appPassword?: string;
  /** Certificates for client assertions (`private_key_jwt`). */
  certificates?: RegisteredCertificate[];
  /** May obtain tokens from the managed-identity endpoint (`MicrosoftAppType=UserAssignedMsi`). */
  managedIdentity?: boolean;
  /** The bot runs without authentication (its `MicrosoftAppId` is empty): no credentials, no tokens. */
  anonymous?: boolean;
  /** The SDK the bot is built with (default `botbuilder`): decides the `iss` of the tokens sent to it. */
  sdk?: BotSdk;
  /** An explicit `iss` for the tokens sent to the bot (wins over `sdk`). */
  channelTokenIssuer?: string;
  /**
   * The bot's own managed-identity secret (16+ characters): `/msi/token` requests with this `X-IDENTITY-HEADER` are
   * the bot's, with or without `client_id` (`authType=SystemManagedIdentity`).
   */
  identityHeader?: string;
  /** The bot's OAuth connections (the user-token service), validated by the platform configuration. */
  oauthConnections?: readonly OAuthConnectionConfig[];
}

/** A registered certificate, parsed. */
export interface BotCertificate {
  /** base64url SHA-1 thumbprint (`x5t`). */
  x5t: string;
  /** base64url SHA-256 thumbprint (`x5t#S256`); only known for certificates. */
  x5tS256?: string;
  publicKey: KeyObject;
}

/** A validated registration, as the registry holds it. */
export interface BotRegistration {
  /** Platform id: conversations in the store name their bot by it. */
  id: string;
  appId: string;
  /** Its name in conversations (the registration's `displayName`): with `id`, a `ConversationBot`. */
  name: string;
  messagingEndpoint: string;
  password?: { kind: 'argon2'; hash: string } | { kind: 'plain'; digest: Buffer };
  certificates: BotCertificate[];
  managedIdentity: boolean;
  anonymous: boolean;
  sdk: BotSdk;
  channelTokenIssuer?: string;
  /** SHA-256 of the bot's own identity header. */
  identityHeaderDigest?: Buffer;
  /** The bot's OAuth connections (user-token service). */
  oauthConnections: readonly OAuthConnectionConfig[];
}

const APP_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const HEX_SHA1 = /^[0-9A-Fa-f]{40}$/;
const B64URL_SHA1 = /^[A-Za-z0-9_-]{27}$/;

/** The SHA-256 digest a plain password is kept as, so it can be compared in constant time. */
export function passwordDigest(password: string): Buffer {
  return createHash('sha256').update(password, 'utf8').digest();
}

export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function normaliseThumbprint(thumbprint: string): string | undefined {
  if (HEX_SHA1.test(thumbprint)) return Buffer.from(thumbprint, 'hex').toString('base64url');
  if (B64URL_SHA1.test(thumbprint)) return thumbprint;
  return undefined;
}

function parseCertificate(
  certificate: RegisteredCertificate,
  at: string,
  problems: string[],
): BotCertificate | undefined {
  if (typeof certificate !== 'object' || certificate === null || typeof certificate.pem !== 'string') {
    problems.push(`${at}.pem: must be a PEM string`);
    return undefined;
  }
  let given: string | undefined;
  if (certificate.thumbprint !== undefined) {
    given =
      typeof certificate.thumbprint === 'string' ? normaliseThumbprint(certificate.thumbprint) : undefined;
    if (given === undefined) {
      problems.push(
        `${at}.thumbprint: must be a SHA-1 thumbprint (40 hex digits or 27 base64url characters)`,
      );
      return undefined;
    }
  }
  if (certificate.pem.includes('BEGIN CERTIFICATE')) {
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(certificate.pem);
    } catch (error) {
      problems.push(`${at}.pem: not a readable certificate (${(error as Error).message})`);
      return undefined;
    }
    const x5t = createHash('sha1').update(x509.raw).digest('base64url');
    if (given !== undefined && given !== x5t) {
      problems.push(`${at}.thumbprint: does not match the certificate (its x5t is ${x5t})`);
      return undefined;
    }
    return {
      x5t,
      x5tS256: createHash('sha256').update(x509.raw).digest('base64url'),
      publicKey: x509.publicKey,
    };
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(certificate.pem);
  } catch (error) {
    problems.push(`${at}.pem: neither a certificate nor a public key (${(error as Error).message})`);
    return undefined;
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    problems.push(`${at}.pem: must be an RSA key (client assertions are RS256/PS256)`);
    return undefined;
  }
  if (given === undefined) {
    problems.push(`${at}.thumbprint: required for a bare public key`);
    return undefined;
  }
  return { x5t: given, publicKey };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Validates the registry's input and turns it into registrations; throws a ConfigurationError naming
 * every offending field (`bots[1].messagingEndpoint: …`).
 */
export function validateRegisteredBots(bots: readonly RegisteredBot[], source = 'bots'): BotRegistration[] {
  const problems: string[] = [];
  const registrations: BotRegistration[] = [];
  const appIds = new Set<string>();
  const ids = new Set<string>();
  const identityHeaders = new Set<string>();
  const list: unknown = bots;
  if (!Array.isArray(list)) throw new ConfigurationError(source, [`${source}: must be a list of bots`]);
  bots.forEach((bot, index) => {
    const at = `${source}[${index}]`;
    const before = problems.length;
    if (typeof bot !== 'object' || bot === null) {
      problems.push(`${at}: must be an object`);
      return;
    }
    // An anonymous bot may have no app id (botbuilder's MicrosoftAppId is empty then): its platform id names it.
    const anonymousWithoutAppId = bot.anonymous === true && (bot.appId === undefined || bot.appId === '');
    if (anonymousWithoutAppId) {
      if (bot.id === undefined) problems.push(`${at}.id: an anonymous bot without an appId needs an id`);
    } else if (typeof bot.appId !== 'string' || !APP_ID.test(bot.appId)) {
      problems.push(
        `${at}.appId: must be 1-128 characters of letters, digits and . _ : @ - (got ${JSON.stringify(bot.appId)})`,
      );
    } else if (appIds.has(bot.appId)) {
      problems.push(`${at}.appId: ${bot.appId} is registered twice`);
    } else {
      appIds.add(bot.appId);
    }
    if (bot.id !== undefined) {
      if (typeof bot.id !== 'string' || bot.id.trim() === '')
        problems.push(`${at}.id: must be a non-empty string`);
      else if (ids.has(bot.id)) problems.push(`${at}.id: ${bot.id} is registered twice`);
      else ids.add(bot.id);
    }
    if (typeof bot.displayName !== 'string' || bot.displayName.trim() === '')
      problems.push(`${at}.displayName: must be a non-empty string`);
    if (typeof bot.messagingEndpoint !== 'string' || !isHttpUrl(bot.messagingEndpoint))
      problems.push(`${at}.messagingEndpoint: must be an absolute http(s) URL`);
    if (bot.appPassword !== undefined && bot.appPasswordHash !== undefined)
      problems.push(`${at}: give at most one of appPassword and appPasswordHash`);
    if (bot.appPassword !== undefined && (typeof bot.appPassword !== 'string' || bot.appPassword.length < 8))
      problems.push(`${at}.appPassword: must be a string of at least 8 characters`);
    if (
      bot.appPasswordHash !== undefined &&
      (typeof bot.appPasswordHash !== 'string' || !/^\$argon2(id|i|d)\$/.test(bot.appPasswordHash))
    )
      problems.push(`${at}.appPasswordHash: must be an argon2 PHC string ($argon2id$…)`);
    for (const flag of ['managedIdentity', 'anonymous'] as const) {
      if (bot[flag] !== undefined && typeof bot[flag] !== 'boolean')
        problems.push(`${at}.${flag}: must be true or false`);
    }
    if (bot.sdk !== undefined && !BOT_SDKS.includes(bot.sdk))
      problems.push(`${at}.sdk: must be one of ${BOT_SDKS.join(', ')}`);
    if (
      bot.channelTokenIssuer !== undefined &&
      (typeof bot.channelTokenIssuer !== 'string' || !/^\S+$/.test(bot.channelTokenIssuer))
    )
      problems.push(`${at}.channelTokenIssuer: must be a non-empty string without spaces`);
    if (bot.identityHeader !== undefined) {
      if (typeof bot.identityHeader !== 'string' || bot.identityHeader.length < 16)
        problems.push(`${at}.identityHeader: must be a string of at least 16 characters`);
      else if (identityHeaders.has(bot.identityHeader))
        problems.push(`${at}.identityHeader: the same secret is already used by another bot`);
      else identityHeaders.add(bot.identityHeader);
    }
    if (bot.certificates !== undefined && !Array.isArray(bot.certificates))
      problems.push(`${at}.certificates: must be a list`);
    const certificates: BotCertificate[] = [];
    const certificateList: readonly RegisteredCertificate[] = Array.isArray(bot.certificates)
      ? bot.certificates
      : [];
    certificateList.forEach((certificate, certificateIndex) => {
      const parsed = parseCertificate(certificate, `${at}.certificates[${certificateIndex}]`, problems);
      if (!parsed) return;
      if (certificates.some((existing) => existing.x5t === parsed.x5t))
        problems.push(`${at}.certificates[${certificateIndex}]: registered twice (x5t ${parsed.x5t})`);
      certificates.push(parsed);
    });
    const hasCredentials =
      bot.appPassword !== undefined ||
      bot.appPasswordHash !== undefined ||
      certificateList.length > 0 ||
      bot.managedIdentity === true ||
      bot.identityHeader !== undefined;
    if (bot.anonymous === true && hasCredentials)
      problems.push(
        `${at}.anonymous: an anonymous bot has no password, certificate, managed identity or identity header`,
      );
    if (bot.anonymous !== true && !hasCredentials)
      problems.push(
        `${at}: needs appPassword, appPasswordHash, certificates, managedIdentity or identityHeader (or anonymous: true)`,
      );
    if (problems.length > before) return;
    registrations.push({
      id: bot.id ?? bot.appId ?? '',
      appId: bot.appId ?? '',
      name: bot.displayName,
      messagingEndpoint: bot.messagingEndpoint,
      password:
        bot.appPasswordHash !== undefined
          ? { kind: 'argon2', hash: bot.appPasswordHash }
          : bot.appPassword !== undefined
            ? { kind: 'plain', digest: passwordDigest(bot.appPassword) }
            : undefined,
      certificates,
      managedIdentity: bot.managedIdentity === true,
      anonymous: bot.anonymous === true,
      sdk: bot.sdk ?? 'botbuilder',
      ...(bot.channelTokenIssuer !== undefined && { channelTokenIssuer: bot.channelTokenIssuer }),
      ...(bot.identityHeader !== undefined && { identityHeaderDigest: passwordDigest(bot.identityHeader) }),
      oauthConnections: bot.oauthConnections ?? [],
    });
  });
  if (problems.length > 0) throw new ConfigurationError(source, problems);
  return registrations;
}
