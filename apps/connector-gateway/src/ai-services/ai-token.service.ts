import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeyRing, signJwt, verifyJwt } from '@fieldops/auth';
import { type AiResourceConfig } from '@fieldops/platform-config';
import { CLOCK_SKEW_SECONDS } from '../signing-keys/connector-key-ring';

/** `iss` of the tokens issueToken exchanges keys for (distinct from every other token the gateway signs). */
export const AI_TOKEN_ISSUER = 'urn:fieldops:cognitiveservices';
/** `aud` of those tokens. */
export const AI_TOKEN_AUDIENCE = 'urn:ms.cognitiveservices';
/** Their lifetime: 10 minutes, as the real service's. */
export const AI_TOKEN_LIFETIME_SECONDS = 600;

/** What an exchanged token says about the caller. */
export interface ExchangedTokenClaims {
  resource: string;
  region: string;
}

/**
 * Mints and verifies the tokens `POST /sts/v1.0/issueToken` exchanges a key for: RS256 from the gateway's key
 * ring (so every replica verifies them), `region` and `resource` claims, `exp = iat + 600`.
 */
@Injectable()
export class AiTokenService {
  constructor(private readonly keyRing: KeyRing) {}

  issue(resource: AiResourceConfig): string {
    return signJwt(
      this.keyRing,
      {
        region: resource.region,
        resource: resource.name,
        'product-id': resource.kind === 'translator' ? 'TextTranslation' : 'CognitiveServices',
        scope: 'https://api.microsofttranslator.com/',
        iat: Math.floor(Date.now() / 1000),
      },
      {
        expiresInSeconds: AI_TOKEN_LIFETIME_SECONDS,
        issuer: AI_TOKEN_ISSUER,
        audience: AI_TOKEN_AUDIENCE,
        jwtId: randomUUID(),
      },
    );
  }

  /** Throws TokenVerificationError when the token is not a valid, unexpired exchanged token. */
  verify(token: string): ExchangedTokenClaims {
    const claims = verifyJwt(this.keyRing, token, {
      algorithms: ['RS256'],
      issuer: AI_TOKEN_ISSUER,
      audience: AI_TOKEN_AUDIENCE,
      clockToleranceSeconds: CLOCK_SKEW_SECONDS,
    });
    return { resource: String(claims.resource), region: String(claims.region) };
  }
}
