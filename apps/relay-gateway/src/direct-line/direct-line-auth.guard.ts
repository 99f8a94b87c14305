import { createHash, timingSafeEqual } from 'node:crypto';
import { type ServerResponse } from 'node:http';
import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type BotConfig, findBot } from '@fieldops/platform-config';
import { badArgument, tooManyRequests } from '@fieldops/contracts';
import { LOGGER, type Logger, type RouteRequest } from '@fieldops/platform';
import { type RateLimit, RateLimitStore } from '@fieldops/rate-limits';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from './credentials';
import { PLATFORM_CONFIG, type PlatformConfig } from './relay-settings';
import { TokenIssuer } from './token-issuer';
import { assertEnhancedAuthentication, originRefusal } from './enhanced-authentication';
import { assertTokenForConversation } from './token-conversation';

const ENHANCED_AUTH_EXEMPT = 'fieldops:relay:enhanced-auth-exempt';
const LEGACY_SCHEMES = 'fieldops:relay:legacy-schemes';

/** The route may be called with a secret even under enhanced authentication (tokens/generate). */
export const ExemptFromEnhancedAuth = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ENHANCED_AUTH_EXEMPT, true);

/** Direct Line 1.1: also accept the `Connector` and `BotConnector` scheme words. */
export const AcceptLegacySchemes = (): MethodDecorator & ClassDecorator => SetMetadata(LEGACY_SCHEMES, true);

export type AuthenticatedRequest = RouteRequest & { directLineCredential?: Credential };

/** The credential the guard established for this request. */
export const DirectLineCredential = createParamDecorator(
  (_: unknown, context: ExecutionContext): Credential => {
    const credential = context.switchToHttp().getRequest<AuthenticatedRequest>().directLineCredential;
    if (!credential) throw new Error('DirectLineAuthGuard did not run');
    return credential;
  },
);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Authenticates every Direct Line route: a secret (any conversation of its bot) or a conversation token; checks the
 * token's conversation against the route's, its origins against `Origin`, enhanced authentication, and rate limits.
 */
@Injectable()
export class DirectLineAuthGuard implements CanActivate {
  private readonly secrets: Array<{ digest: Buffer; bot: BotConfig }>;
  private readonly tokenLimit: RateLimit;

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly issuer: TokenIssuer,
    private readonly reflector: Reflector,
    environment: RelayGatewayEnvironment,
    rateLimits: RateLimitStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.secrets = config.bots.flatMap((bot) =>
      (bot.directLine?.secrets ?? []).map((secret) => ({ digest: digest(secret), bot })),
    );
    // Counted in the relay's rate-limit store: Redis when REDIS_URL is set, so every instance counts together.
    this.tokenLimit = rateLimits.limit({
      name: 'requests-token',
      points: environment.RELAY_RATE_LIMIT_PER_TOKEN,
      windowSeconds: 60,
    });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const legacy = this.reflector.getAllAndOverride<boolean>(LEGACY_SCHEMES, targets) ?? false;
    const credential = this.authenticate(request.headers.authorization, legacy);

    // A rate-limit store that cannot answer (Redis down) lets the request through: polling must never see a 5xx
    // (DirectLineJS stops polling for good after one), and the store and bus report the outage themselves.
    const rate = await this.tokenLimit.consume(credential.key).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'rate limit not counted: the rate-limit store did not answer');
      return undefined;
    });
    if (rate && !rate.allowed) {
      throw tooManyRequests('Too many requests', rate.retryAfterSeconds);
    }

    const routeConversation = request.params?.conversationId;
    if (credential.kind === 'token' && typeof routeConversation === 'string')
      assertTokenForConversation(credential.conversationId, routeConversation);

    const refusal = originRefusal(
      request.headers.origin,
      credential.bot,
      credential.kind === 'token' ? credential.origins : [],
    );
    if (refusal) {
      // CORS answers only the trusted origins: without Access-Control-Allow-Origin the browser of a page on another
      // origin cannot read this answer (the preflight, which carries no credential, was answered permissively).
      context.switchToHttp().getResponse<ServerResponse>().removeHeader('Access-Control-Allow-Origin');
      throw refusal;
    }

    const exempt = this.reflector.getAllAndOverride<boolean>(ENHANCED_AUTH_EXEMPT, targets) ?? false;
    if (!exempt)
      assertEnhancedAuthentication(
        credential.bot,
        credential.kind === 'token' ? credential.userId : undefined,
      );
    request.directLineCredential = credential;
    return true;
  }

  private authenticate(header: string | undefined, legacy: boolean): Credential {
    const match = /^(\S+)\s+(\S+)\s*$/.exec(header ?? '');
    const scheme = match?.[1]?.toLowerCase();
    const value = match?.[2];
    const schemes = legacy ? ['bearer', 'connector', 'botconnector'] : ['bearer'];
    if (!scheme || !value || !schemes.includes(scheme)) {
      throw badArgument('Missing token or secret', 401);
    }
    const valueDigest = digest(value);
    const secret = this.secrets.find((candidate) => timingSafeEqual(candidate.digest, valueDigest));
    if (secret) {
      return { kind: 'secret', bot: secret.bot, key: `secret:${valueDigest.toString('base64url')}` };
    }
    const { claims, expiresAt } = this.issuer.verify(value);
    const bot = findBot(this.config, claims.bot);
    if (claims.scope !== 'conversation' || !bot?.directLine) {
      throw badArgument('Invalid token or secret', 403);
    }
    return {
      kind: 'token',
      bot,
      conversationId: claims.conv,
      token: value,
      userId: claims.user,
      userName: claims.name,
      origins: claims.origins ?? [],
      expiresAt,
      until: typeof claims.until === 'number' ? claims.until : undefined,
      join: typeof claims.join === 'string' ? claims.join : undefined,
      key: `token:${valueDigest.toString('base64url')}`,
    };
  }
}
