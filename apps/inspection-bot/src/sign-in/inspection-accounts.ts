import { isIP } from 'node:net';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { InspectionApiClient } from '../inspection-api/inspection-api.client';

/** The signed-in account and its inspection-api tokens (kept server-side, sealed in the session cookie). */
export interface AccountTokens {
  userId: number;
  username: string;
  access: string;
  refresh: string;
  /** Epoch seconds. */
  accessExpiresAt: number;
}

/** inspection-api's `GET /api/oidc/`. */
export interface ProviderSignInOptions {
  provider: { name: string; login_url: string } | null;
  local_passwords: boolean;
}

export type SignInOutcome =
  | { kind: 'signed-in'; account: AccountTokens }
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** inspection-api's header naming the address of the person whose password the bot exchanges. */
export const CLIENT_ADDRESS_HEADER = 'x-fieldops-client-address';

/** A 401 about the bot's own bearer token (simplejwt's `token_not_valid`), not about the person's password. */
async function isRefusedServiceToken(response: Response): Promise<boolean> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: unknown } | undefined;
  return body?.code === 'token_not_valid';
}

function claimsOf(jwt: string): { exp?: unknown; user_id?: unknown } {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

/**
 * The people's accounts at inspection-api (simplejwt): a user name and password exchanged at `POST /api/token/`
 * (with the person's address, see {@link InspectionAccounts.signIn}),
 * the access token renewed at `POST /api/token/refresh/`, the account read at `GET /api/users/me/`. The tokens
 * come straight from inspection-api over this server's own connection.
 */
@Injectable()
export class InspectionAccounts {
  private options: { value: ProviderSignInOptions; until: number } | undefined;

  constructor(
    private readonly environment: InspectionBotEnvironment,
    private readonly service: InspectionApiClient,
  ) {}

  /**
   * Exchanges a person's password at `POST /api/token/`, naming their address (`X-FieldOps-Client-Address`, believed
   * by inspection-api with this bot's service token only), so the API's login throttle counts each person's address
   * and not this server's.
   */
  async signIn(username: string, password: string, clientAddress: string): Promise<SignInOutcome> {
    let response = await this.exchange(username, password, clientAddress, false);
    if (response.status === 401 && (await isRefusedServiceToken(response))) {
      response = await this.exchange(username, password, clientAddress, true);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      return { kind: 'throttled', retryAfterSeconds: Number(response.headers.get('retry-after')) || 60 };
    }
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return { kind: 'refused' };
    }
    if (!response.ok) throw this.unavailable(response.status);
    const pair = (await response.json()) as { access: string; refresh: string };
    return { kind: 'signed-in', account: await this.accountOf(pair, username) };
  }

  /**
   * How people sign in (inspection-api's `GET /api/oidc/`): its OpenID Connect provider and whether passwords are
   * accepted; kept a minute; passwords only when inspection-api cannot say.
   */
  async signInOptions(): Promise<ProviderSignInOptions> {
    if (this.options && this.options.until > Date.now()) return this.options.value;
    let value: ProviderSignInOptions = { provider: null, local_passwords: true };
    try {
      const response = await this.fetchApi('oidc/', {});
      if (response.ok) value = (await response.json()) as ProviderSignInOptions;
      else await response.body?.cancel();
    } catch {
      return value;
    }
    this.options = { value, until: Date.now() + 60_000 };
    return value;
  }

  /** Exchanges a provider sign-in's one-time code (`POST /api/oidc/token/`); undefined when it is refused. */
  async exchangeProviderCode(code: string): Promise<AccountTokens | undefined> {
    const response = await this.post('oidc/token/', { code });
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) throw this.unavailable(response.status);
    return this.accountOf((await response.json()) as { access: string; refresh: string });
  }

  /** The account behind a fresh token pair (`GET /api/users/me/`). */
  private async accountOf(
    pair: { access: string; refresh: string },
    username?: string,
  ): Promise<AccountTokens> {
    const me = await this.fetchApi('users/me/', { headers: { authorization: `Bearer ${pair.access}` } });
    let user: { id: number; username: string } | undefined;
    if (me.ok) user = (await me.json()) as { id: number; username: string };
    else await me.body?.cancel();
    const userId = user?.id ?? Number(claimsOf(pair.access).user_id);
    const name = user?.username ?? username;
    if (!Number.isSafeInteger(userId) || name === undefined) throw this.unavailable(me.status);
    return {
      userId,
      username: name,
      access: pair.access,
      refresh: pair.refresh,
      accessExpiresAt: Number(claimsOf(pair.access).exp) || 0,
    };
  }

  /** A renewed access token, or undefined when inspection-api refuses the refresh token (expired, revoked). */
  async renew(account: AccountTokens): Promise<AccountTokens | undefined> {
    const response = await this.post('token/refresh/', { refresh: account.refresh });
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) throw this.unavailable(response.status);
    const body = (await response.json()) as { access: string; refresh?: string };
    return {
      ...account,
      access: body.access,
      refresh: body.refresh ?? account.refresh,
      accessExpiresAt: Number(claimsOf(body.access).exp) || 0,
    };
  }

  /**
   * Signs one session out at inspection-api: its refresh token is blacklisted (`POST /api/token/blacklist/`), so no
   * copy of the session can renew its access token again, in this process or after a restart. False when
   * inspection-api did not take it (it is unreachable or failing); a refused token (already invalid) is done.
   */
  async signOut(account: AccountTokens): Promise<boolean> {
    const response = await this.post('token/blacklist/', { refresh: account.refresh });
    await response.body?.cancel();
    return response.ok || (response.status >= 400 && response.status < 500);
  }

  private async exchange(
    username: string,
    password: string,
    clientAddress: string,
    renewServiceToken: boolean,
  ): Promise<Response> {
    let serviceToken: string;
    try {
      serviceToken = renewServiceToken
        ? await this.service.renewedAccessToken()
        : await this.service.accessToken();
    } catch {
      throw new ServiceUnavailableException('The inspection service does not accept the bot right now.');
    }
    return this.fetchApi('token/', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${serviceToken}`,
        ...(isIP(clientAddress) ? { [CLIENT_ADDRESS_HEADER]: clientAddress } : {}),
      },
      body: JSON.stringify({ username, password }),
    });
  }

  private post(path: string, body: unknown): Promise<Response> {
    return this.fetchApi(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private async fetchApi(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.environment.INSPECTION_API_URL}/api/${path}`, {
        ...init,
        headers: { accept: 'application/json', ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new ServiceUnavailableException('The inspection service is not reachable.');
    }
  }

  private unavailable(status: number): ServiceUnavailableException {
    return new ServiceUnavailableException(`The inspection service answered ${status}.`);
  }
}
