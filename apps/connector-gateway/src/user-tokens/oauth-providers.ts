import { Inject, Injectable } from '@nestjs/common';
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
