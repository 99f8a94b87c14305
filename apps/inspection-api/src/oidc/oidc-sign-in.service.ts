import { Inject, Injectable } from '@nestjs/common';
import * as client from 'openid-client';
import { LOGGER, type Logger } from '@fieldops/platform';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { UsersService } from '../users/users.service';
import { roleFromClaims } from './oidc-role-mapping';
import { OidcSignInStore } from './oidc-sign-in-store';

/** Why a sign-in came back without an account (the `oidc_error` the return address gets). */
export type SignInRefusal =
  'access_denied' | 'account_conflict' | 'account_inactive' | 'invalid_username' | 'temporarily_unavailable';

export type CallbackOutcome =
  | { kind: 'expired' }
  | { kind: 'signed-in'; returnTo: string; code: string }
  | { kind: 'refused'; returnTo: string; error: SignInRefusal };

/**
 * inspection-api as an OpenID Connect relying party (`openid-client`, OpenID certified): discovery (cached, tried
 * again after a failure), the authorization code flow with PKCE (S256), `state` and `nonce` used once, the person's
 * claims from the ID token and userinfo, their role from the configured claim, their account created or updated.
 * An `http:` issuer is allowed (a provider on a private network); production providers should be https.
 */
@Injectable()
export class OidcSignInService {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly environment: InspectionApiEnvironment,
    private readonly store: OidcSignInStore,
    private readonly users: UsersService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.environment.INSPECTION_OIDC_ISSUER !== undefined;
  }

  /** The provider's authorization URL for a new sign-in that returns to `returnTo`. */
  async start(returnTo: string, redirectUri: string): Promise<URL> {
    const configuration = await this.discovered();
    const started = await this.store.start(returnTo);
    const scopes = new Set(['openid', ...this.environment.INSPECTION_OIDC_SCOPES]);
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: [...scopes].join(' '),
      state: started.state,
      nonce: started.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(started.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** The provider sent the browser back to `callbackUrl` (with `state` and `code`, or an `error`). */
  async complete(state: string, callbackUrl: URL): Promise<CallbackOutcome> {
    const started = await this.store.takeState(state);
    if (!started) return { kind: 'expired' };
    const refused = (error: SignInRefusal): CallbackOutcome => ({
      kind: 'refused',
      returnTo: started.returnTo,
      error,
    });
    let claims: Record<string, unknown>;
    try {
      const configuration = await this.discovered();
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: state,
        expectedNonce: started.nonce,
        pkceCodeVerifier: started.codeVerifier,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      const userInfo = await client
        .fetchUserInfo(configuration, tokens.access_token, idClaims.sub)
        .catch((error: unknown) => {
          // Some providers put everything in the ID token and offer no userinfo to this client.
          this.logger.warn(
            { error: (error as Error).message },
            'OpenID userinfo not read; using the ID token',
          );
          return {};
        });
      claims = { ...idClaims, ...userInfo };
    } catch (error) {
      const denied = error instanceof client.AuthorizationResponseError && error.error === 'access_denied';
      this.logger.warn({ error: (error as Error).message }, 'OpenID sign-in not completed');
      return refused(denied ? 'access_denied' : 'temporarily_unavailable');
    }
    const role = roleFromClaims(claims, {
      claim: this.environment.INSPECTION_OIDC_ROLE_CLAIM,
      supervisorValues: this.environment.INSPECTION_OIDC_SUPERVISOR_VALUES,
      inspectorValues: this.environment.INSPECTION_OIDC_INSPECTOR_VALUES,
    });
    const subject = claims.sub as string;
    if (!role) {
      this.logger.info({ subject }, 'OpenID sign-in refused: no role maps from the role claim');
      return refused('access_denied');
    }
    const username = claims[this.environment.INSPECTION_OIDC_USERNAME_CLAIM];
    if (typeof username !== 'string' || username.trim() === '' || username.length > 150) {
      this.logger.warn({ subject }, 'OpenID sign-in refused: no usable user name claim');
      return refused('invalid_username');
    }
    const account = await this.users.signInFromProvider(
      { issuer: this.environment.INSPECTION_OIDC_ISSUER!, subject, username: username.trim(), role },
      this.environment.INSPECTION_OIDC_LINK_BY_USERNAME,
    );
    if (account.kind === 'conflict') {
      this.logger.warn({ subject, username }, 'OpenID sign-in refused: a local account has that user name');
      return refused('account_conflict');
    }
    if (account.kind === 'inactive') return refused('account_inactive');
    return {
      kind: 'signed-in',
      returnTo: started.returnTo,
      code: await this.store.issueCode(account.userId),
    };
  }

  private discovered(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.environment.INSPECTION_OIDC_ISSUER!);
      const secret = this.environment.INSPECTION_OIDC_CLIENT_SECRET;
      this.configuration = client
        .discovery(
          issuer,
          this.environment.INSPECTION_OIDC_CLIENT_ID!,
          undefined,
          secret === undefined ? client.None() : client.ClientSecretBasic(secret),
          issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.configuration = undefined;
          this.logger.warn(
            { issuer: issuer.href, error: (error as Error).message },
            'OpenID provider discovery failed',
          );
          throw error;
        });
    }
    return this.configuration;
  }
}
