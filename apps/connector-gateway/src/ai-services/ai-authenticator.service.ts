import { Inject, Injectable } from '@nestjs/common';
import { KeyRing, TokenVerificationError, verifyJwt } from '@fieldops/auth';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type AiResourceConfig, type AiServicesConfig } from '@fieldops/platform-config';
import { appIdFromClaims } from '../bot-auth/bot-access-token-verifier';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { audienceOfScope } from '../oauth/access-token.service';
import { CLOCK_SKEW_SECONDS } from '../signing-keys/connector-key-ring';
import { AiResourceKeys } from './ai-resource-keys.service';
import { type AiAddress, AiResourceRegistry } from './ai-resource-registry';
import { AI_TOKEN_ISSUER, AiTokenService } from './ai-token.service';

/** How a caller authenticated to an AI resource. */
export type AiAuthenticationMode = 'key' | 'key-and-region' | 'exchanged-token' | 'identity-token';

export interface AiCaller {
  resource: AiResourceConfig;
  mode: AiAuthenticationMode;
  /** The app id of an identity token's service principal. */
  principal?: string;
}

/** The credentials a request carries, read from headers (or, for keys, the query string). */
export interface AiCredentials {
  key?: string;
  region?: string;
  bearer?: string;
  /** Where the request was addressed (its host name). */
  hostname: string;
}

/** A refusal; the controllers turn it into their 401 body. `reason` is logged, never sent. */
export class AiAuthenticationError extends Error {
  constructor(
    readonly reason: string,
    readonly clientMessage?: string,
  ) {
    super(reason);
    this.name = 'AiAuthenticationError';
  }
}

const sameRegion = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The Translator authentication rules (notes §9.2) over the configured resources: keys (with the region a
 * multi-service or regional resource needs), tokens exchanged at issueToken, and identity tokens from the
 * client-credentials endpoint (only at the resource's custom-subdomain host, only for role-assigned apps).
 */
@Injectable()
export class AiAuthenticator {
  private readonly identityAudience: string;

  constructor(
    private readonly registry: AiResourceRegistry,
    private readonly keys: AiResourceKeys,
    private readonly tokens: AiTokenService,
    private readonly keyRing: KeyRing,
    private readonly environment: ConnectorGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.identityAudience = audienceOfScope(environment.CONNECTOR_AI_TOKEN_SCOPE);
  }

  get config(): AiServicesConfig {
    return this.registry.config;
  }

  /** issueToken: a current key of a resource that allows local authentication, usable at this address. */
  async authenticateKeyForExchange(key: string | undefined, hostname: string): Promise<AiResourceConfig> {
    const resource = await this.resourceOfKey(key, this.registry.addressOf(hostname));
    if (resource.kind === 'multi-service' && !this.config.tokenExchangeRegions.includes(resource.region))
      throw new AiAuthenticationError(
        `token exchange for multi-service keys is not supported in region ${resource.region}`,
        `Token exchange for multi-service keys is not supported in region ${resource.region}.`,
      );
    return resource;
  }

  /** translate: any of the four modes. */
  async authenticate(credentials: AiCredentials): Promise<AiCaller> {
    const address = this.registry.addressOf(credentials.hostname);
    if (credentials.key !== undefined) {
      const resource = await this.resourceOfKey(credentials.key, address);
      const needsRegion = resource.kind === 'multi-service' || resource.region !== 'global';
      if (credentials.region === undefined) {
        if (needsRegion)
          throw new AiAuthenticationError(`resource ${resource.name} needs Ocp-Apim-Subscription-Region`);
        return { resource, mode: 'key' };
      }
      if (!sameRegion(credentials.region, resource.region))
        throw new AiAuthenticationError(
          `region ${credentials.region} does not match resource ${resource.name} (${resource.region})`,
        );
      return { resource, mode: 'key-and-region' };
    }
    if (credentials.bearer !== undefined) return this.authenticateBearer(credentials.bearer, address);
    throw new AiAuthenticationError('no credentials');
  }

  private async resourceOfKey(key: string | undefined, address: AiAddress): Promise<AiResourceConfig> {
    if (key === undefined || key === '') throw new AiAuthenticationError('no key');
    const found = await this.keys.findByKey(key);
    if (!found) throw new AiAuthenticationError('unknown key');
    const { resource } = found;
    this.checkAddress(resource, address);
    if (resource.localAuthDisabled)
      throw new AiAuthenticationError(`local authentication is disabled for resource ${resource.name}`);
    return resource;
  }

  /** A custom-subdomain host serves only its resource; a regional host only multi-service keys of its region. */
  private checkAddress(resource: AiResourceConfig, address: AiAddress): void {
    if (address.kind === 'custom-subdomain' && address.resource.name !== resource.name)
      throw new AiAuthenticationError(
        `resource ${resource.name} used at ${address.resource.name}'s subdomain`,
      );
    if (
      address.kind === 'regional' &&
      resource.kind === 'multi-service' &&
      !sameRegion(address.region, resource.region)
    )
      throw new AiAuthenticationError(
        `multi-service resource ${resource.name} (${resource.region}) used at the ${address.region} host`,
      );
  }

  private authenticateBearer(token: string, address: AiAddress): AiCaller {
    try {
      if (this.issuerOf(token) === AI_TOKEN_ISSUER) {
        const claims = this.tokens.verify(token);
        const resource = this.registry.find(claims.resource);
        if (!resource) throw new AiAuthenticationError(`token for unknown resource ${claims.resource}`);
        this.checkAddress(resource, address);
        if (resource.localAuthDisabled)
          throw new AiAuthenticationError(`local authentication is disabled for resource ${resource.name}`);
        return { resource, mode: 'exchanged-token' };
      }
      const claims = verifyJwt(this.keyRing, token, {
        algorithms: ['RS256'],
        issuer: this.environment.CONNECTOR_TOKEN_ISSUER,
        audience: this.identityAudience,
        clockToleranceSeconds: CLOCK_SKEW_SECONDS,
      });
      const principal = appIdFromClaims(claims);
      if (address.kind !== 'custom-subdomain')
        throw new AiAuthenticationError('identity tokens are accepted only at a custom-subdomain host');
      const { resource } = address;
      if (principal === undefined || !resource.roleAssignments.includes(principal))
        throw new AiAuthenticationError(
          `${principal ?? 'no app'} has no role assignment on ${resource.name}`,
        );
      return { resource, mode: 'identity-token', principal };
    } catch (error) {
      if (error instanceof TokenVerificationError)
        throw new AiAuthenticationError(`bearer token refused: ${error.reason} (${error.message})`);
      throw error;
    }
  }

  private issuerOf(token: string): unknown {
    const [, payload] = token.split('.');
    try {
      return (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    } catch {
      return undefined;
    }
  }

  /** Logs a refusal (the reason stays in the log; clients get the generic message). */
  logRefusal(error: AiAuthenticationError, operation: string): void {
    this.logger.info({ reason: error.reason, operation }, 'AI-services credentials refused');
  }
}
