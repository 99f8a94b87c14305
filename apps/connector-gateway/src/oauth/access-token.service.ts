import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeyRing, signJwt } from '@fieldops/auth';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

/** How the client proved who it is: `1` secret, `2` certificate (Azure AD's `appidacr`), `msi` managed identity. */
export type ClientAuthenticationMethod = 'secret' | 'certificate' | 'managed-identity';

export interface IssuedAccessToken {
  accessToken: string;
  expiresInSeconds: number;
  /** Epoch seconds. */
  expiresOn: number;
}

const APPIDACR: Record<ClientAuthenticationMethod, string> = {
  secret: '1',
  certificate: '2',
  'managed-identity': '2',
};

/** Strips `/.default` from a scope: what remains is the token's audience (the resource). */
export function audienceOfScope(scope: string): string {
  return scope.endsWith('/.default') ? scope.slice(0, -'/.default'.length) : scope;
}

/**
 * Issues the access tokens bots present to the `/v3` API: RS256 with `kid`, v1.0-style claims
 * (`appid`, `ver: "1.0"`, `tid`), `aud` = the requested resource, lifetime CONNECTOR_TOKEN_LIFETIME_SECONDS.
 */
@Injectable()
export class AccessTokenService {
  constructor(
    private readonly keyRing: KeyRing,
    private readonly environment: ConnectorGatewayEnvironment,
  ) {}

  /** The resources (audiences) a token may be issued for: the Bot Connector's and AI services' (identity tokens). */
  audiences(): string[] {
    return [...this.environment.CONNECTOR_TOKEN_SCOPES, this.environment.CONNECTOR_AI_TOKEN_SCOPE].map(
      audienceOfScope,
    );
  }

  issue(request: {
    appId: string;
    audience: string;
    tenant: string;
    method: ClientAuthenticationMethod;
  }): IssuedAccessToken {
    const lifetime = this.environment.CONNECTOR_TOKEN_LIFETIME_SECONDS;
    const issuedAt = Math.floor(Date.now() / 1000);
    const accessToken = signJwt(
      this.keyRing,
      {
        appid: request.appId,
        appidacr: APPIDACR[request.method],
        tid: request.tenant,
        ver: '1.0',
        iat: issuedAt,
      },
      {
        expiresInSeconds: lifetime,
        issuer: this.environment.CONNECTOR_TOKEN_ISSUER,
        audience: request.audience,
        subject: request.appId,
        jwtId: randomUUID(),
        notBeforeSeconds: 0,
      },
    );
    return { accessToken, expiresInSeconds: lifetime, expiresOn: issuedAt + lifetime };
  }
}
