import { Injectable } from '@nestjs/common';
import { KeyRing, TokenVerificationError, verifyJwt } from '@fieldops/auth';
import { BotRegistry } from '../bots/bot-registry';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { audienceOfScope } from '../oauth/access-token.service';
import { CLOCK_SKEW_SECONDS } from '../signing-keys/connector-key-ring';

/** The bot a `/v3` request comes from, as its bearer token proves. */
export interface BotPrincipal {
  appId: string;
  /** The token's `tid`. */
  tenant?: string;
  audience: string;
}

/**
 * botbuilder's rule (`JwtTokenValidation.getAppIdFromClaims`): `appid` for v1.0 tokens (no `ver`, or
 * `ver: "1.0"`), `azp` for v2.0 tokens; anything else names no app.
 */
export function appIdFromClaims(claims: Record<string, unknown>): string | undefined {
  const version = claims.ver;
  const claim =
    version === undefined || version === '1.0' ? claims.appid : version === '2.0' ? claims.azp : undefined;
  return typeof claim === 'string' && claim !== '' ? claim : undefined;
}

/** Verifies the access tokens this gateway issued: signature by `kid`, RS256, issuer, audience, 300 s skew, a registered bot. */
@Injectable()
export class BotAccessTokenVerifier {
  constructor(
    private readonly keyRing: KeyRing,
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly registry: BotRegistry,
  ) {}

  verify(token: string): BotPrincipal {
    const claims = verifyJwt(this.keyRing, token, {
      algorithms: ['RS256'],
      issuer: this.environment.CONNECTOR_TOKEN_ISSUER,
      audience: this.environment.CONNECTOR_TOKEN_SCOPES.map(audienceOfScope),
      clockToleranceSeconds: CLOCK_SKEW_SECONDS,
    });
    const appId = appIdFromClaims(claims);
    if (appId === undefined) throw new TokenVerificationError('invalid', 'token names no app (appid/azp)');
    const bot = this.registry.find(appId);
    if (!bot || bot.anonymous)
      throw new TokenVerificationError('invalid', `app ${appId} is not a registered bot`);
    return {
      appId,
      tenant: typeof claims.tid === 'string' ? claims.tid : undefined,
      audience: String(claims.aud),
    };
  }
}
