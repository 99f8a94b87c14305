import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type OAuthConnectionConfig } from '@fieldops/platform-config';
import { type StoredTokens } from './user-token.service';

/** Thrown when the provider cannot be reached or refuses: the user sees a "try again" page, the bot no token. */
export class OAuthProviderError extends Error {
  /** The provider answered with an OAuth error (e.g. `invalid_grant`), as opposed to being unreachable. */
  get refused(): boolean {
    return (
      this.cause instanceof client.ResponseBodyError ||
      this.cause instanceof client.AuthorizationResponseError
    );
  }
}

/**
 * The OpenID Connect relying party of each connection (`openid-client`, OpenID certified): discovery (cached per
 * connection, retried after a failure), the authorization code flow with PKCE (S256), and refresh. An `http:` issuer
 * is allowed (a provider on a private network); production providers should be https.
 */
@Injectable()
export class OAuthProviders {
  private readonly configurations = new Map<string, Promise<client.Configuration>>();
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  /** The provider's authorization URL for one sign-in. */
  async authorizationUrl(
    appId: string,
    connection: OAuthConnectionConfig,
    options: { redirectUri: string; state: string; codeVerifier: string },
  ): Promise<URL> {
    const configuration = await this.configuration(appId, connection);
    const scope = connection.scopes.join(' ');
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: options.redirectUri,
      scope,
      state: options.state,
      code_challenge: await client.calculatePKCECodeChallenge(options.codeVerifier),
      code_challenge_method: 'S256',
      // OpenID Connect Core 11: a refresh token (offline_access) is only granted after consent.
      ...(connection.scopes.includes('offline_access') && { prompt: 'consent' }),
    });
  }

  /** Redeems the authorization code the provider sent back to `callbackUrl`. */
  async redeem(
    appId: string,
    connection: OAuthConnectionConfig,
    callbackUrl: URL,
    checks: { state: string; codeVerifier: string },
  ): Promise<StoredTokens> {
    const configuration = await this.configuration(appId, connection);
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: checks.state,
        pkceCodeVerifier: checks.codeVerifier,
      });
      return this.stored(tokens);
    } catch (error) {
      this.logger.warn(
        { connectionName: connection.name, issuer: connection.issuer, error: (error as Error).message },
        'authorization code not redeemed',
      );
      throw new OAuthProviderError((error as Error).message, { cause: error });
    }
  }

  /** New tokens from a refresh token; the provider may keep the old refresh token or rotate it. */
  async refresh(
    appId: string,
    connection: OAuthConnectionConfig,
    refreshToken: string,
  ): Promise<StoredTokens> {
    const configuration = await this.configuration(appId, connection);
    try {
      const tokens = await client.refreshTokenGrant(configuration, refreshToken);
      return { refreshToken, ...this.stored(tokens) };
    } catch (error) {
      this.logger.warn(
        { connectionName: connection.name, issuer: connection.issuer, error: (error as Error).message },
        'refresh refused',
      );
      throw new OAuthProviderError((error as Error).message, { cause: error });
    }
  }

  /**
   * SSO token exchange: a token the client already holds from the connection's provider, accepted when it is a JWT
   * signed with one of the provider's keys (its jwks_uri), issued by it (`iss`), for the connection's client (`aud`)
   * and not expired. Undefined when it is not.
   */
  async exchangeable(
    appId: string,
    connection: OAuthConnectionConfig,
    token: string,
  ): Promise<StoredTokens | undefined> {
    const metadata = (await this.configuration(appId, connection)).serverMetadata();
    if (metadata.jwks_uri === undefined) return undefined;
    let keys = this.keySets.get(metadata.jwks_uri);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
      this.keySets.set(metadata.jwks_uri, keys);
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: metadata.issuer,
        audience: connection.clientId,
        algorithms: [
          'RS256',
          'RS384',
          'RS512',
          'PS256',
          'PS384',
          'PS512',
          'ES256',
          'ES384',
          'ES512',
          'EdDSA',
        ],
        requiredClaims: ['exp', 'sub'],
      });
      return { accessToken: token, ...(payload.exp !== undefined && { expiresAt: payload.exp }) };
    } catch (error) {
      this.logger.info(
        { connectionName: connection.name, issuer: connection.issuer, error: (error as Error).message },
        'token exchange refused',
      );
      return undefined;
    }
  }

  private stored(tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): StoredTokens {
    const expiresIn = tokens.expiresIn();
    return {
      accessToken: tokens.access_token,
      ...(tokens.refresh_token !== undefined && { refreshToken: tokens.refresh_token }),
      ...(tokens.id_token !== undefined && { idToken: tokens.id_token }),
      ...(expiresIn !== undefined && { expiresAt: Math.floor(Date.now() / 1000) + expiresIn }),
    };
  }

  private configuration(appId: string, connection: OAuthConnectionConfig): Promise<client.Configuration> {
    const key = JSON.stringify([appId, connection.name]);
    let configuration = this.configurations.get(key);
    if (!configuration) {
      const issuer = new URL(connection.issuer);
      configuration = client
        .discovery(
          issuer,
          connection.clientId,
          undefined,
          connection.clientSecret === undefined
            ? client.None()
            : client.ClientSecretBasic(connection.clientSecret),
          issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.configurations.delete(key);
          this.logger.warn(
            { connectionName: connection.name, issuer: connection.issuer, error: (error as Error).message },
            'OpenID provider discovery failed',
          );
          throw new OAuthProviderError((error as Error).message, { cause: error });
        });
      this.configurations.set(key, configuration);
    }
    return configuration;
  }
}
