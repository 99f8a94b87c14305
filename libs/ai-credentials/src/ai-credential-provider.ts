import { type Clock, systemClock } from './clock';

/** The cognitive-services scope identity tokens are requested for. */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';
/** Refresh cached tokens this long before they expire. */
export const REFRESH_MARGIN_MS = 60_000;
/** Lifetime issueToken tokens have (10 minutes) when the token does not say. */
export const EXCHANGED_TOKEN_LIFETIME_MS = 600_000;

/** How the provider authenticates. */
export type AiCredentialMode =
  /** `Ocp-Apim-Subscription-Key` (a global single-service resource). */
  | { kind: 'key'; keys: readonly string[] }
  /** `Ocp-Apim-Subscription-Key` + `Ocp-Apim-Subscription-Region` (regional or multi-service resources). */
  | { kind: 'key-and-region'; keys: readonly string[]; region: string }
  /** A key exchanged at `{stsEndpoint}/sts/v1.0/issueToken`, sent as `Authorization: Bearer`. */
  | { kind: 'exchanged-token'; keys: readonly string[]; stsEndpoint: string }
  /** A client-credentials token for the resource (sent only to its custom-subdomain endpoint). */
  | {
      kind: 'identity-token';
      /** e.g. `http://connector:8020/botframework.com/oauth2/v2.0/token` */
      tokenEndpoint: string;
      clientId: string;
      clientSecret: string;
      /** Default: https://cognitiveservices.azure.com/.default */
      scope?: string;
    };

export interface AiCredentialProviderOptions {
  mode: AiCredentialMode;
  /** Time source for token expiry (tests). Default: Date.now. */
  clock?: Clock;
  /** HTTP client for the token requests (default: global fetch). */
  fetch?: typeof fetch;
}

/** A credential the service refused, or a token request that failed. */
export class AiCredentialError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: string,
  ) {
    super(message);
    this.name = 'AiCredentialError';
  }
}

interface CachedToken {
  value: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** The `exp` of a JWT in epoch ms, if readable. */
function expiryOfJwt(token: string): number | undefined {
  try {
    const [, payload] = token.split('.');
    const exp = (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { exp?: unknown })
      .exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Produces the request headers an AI service needs, in one of four modes: a key, a key plus region, a token
 * exchanged for a key at issueToken, or an identity token from a client-credentials endpoint. Tokens are
 * cached and refreshed a minute before they expire, with one refresh in flight however many callers wait.
 * With two keys, a refused key fails over to the other (see {@link send}).
 */
export class AiCredentialProvider {
  private readonly clock: Clock;
  private readonly fetch: typeof fetch;
  private keyIndex = 0;
  private cached: CachedToken | undefined;
  private refreshing: Promise<CachedToken> | undefined;
  /** How many tokens were fetched (issueToken or client credentials): observability and tests. */
  tokenRequests = 0;

  constructor(private readonly options: AiCredentialProviderOptions) {
    this.clock = options.clock ?? systemClock;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const { mode } = options;
    if ('keys' in mode && mode.keys.filter((key) => key !== '').length === 0)
      throw new AiCredentialError('at least one key is required');
  }

  get mode(): AiCredentialMode['kind'] {
    return this.options.mode.kind;
  }

  /** The key in use (key modes); the other one takes over when this one is refused. */
  get currentKey(): string | undefined {
    const { mode } = this.options;
    return 'keys' in mode ? mode.keys[this.keyIndex] : undefined;
  }

  /** The headers for the next request. */
  async headers(): Promise<Record<string, string>> {
    const { mode } = this.options;
    switch (mode.kind) {
      case 'key':
        return { 'Ocp-Apim-Subscription-Key': this.currentKey ?? '' };
      case 'key-and-region':
        return {
          'Ocp-Apim-Subscription-Key': this.currentKey ?? '',
          'Ocp-Apim-Subscription-Region': mode.region,
        };
      case 'exchanged-token':
      case 'identity-token':
        return { Authorization: `Bearer ${(await this.token()).value}` };
    }
  }

  /**
   * Runs a request with the credential headers; on 401 it switches credential (the next key, or a fresh token)
   * and runs it once more. Returns the last response.
   */
  async send(request: (headers: Record<string, string>) => Promise<Response>): Promise<Response> {
    const first = await request(await this.headers());
    if (first.status !== 401) return first;
    await first.body?.cancel().catch(() => undefined);
    this.credentialRefused();
    return request(await this.headers());
  }

  /** Marks the current credential as refused: the next key (if any) is used, the cached token dropped. */
  credentialRefused(): void {
    const { mode } = this.options;
    if ('keys' in mode && mode.keys.length > 1) this.keyIndex = (this.keyIndex + 1) % mode.keys.length;
    this.cached = undefined;
  }

  private token(): Promise<CachedToken> {
    const cached = this.cached;
    if (cached && this.clock() < cached.expiresAt - REFRESH_MARGIN_MS) return Promise.resolve(cached);
    this.refreshing ??= this.fetchToken()
      .then((token) => {
        this.cached = token;
        return token;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async fetchToken(): Promise<CachedToken> {
    const { mode } = this.options;
    if (mode.kind === 'exchanged-token') return this.exchangeKey(mode.keys, mode.stsEndpoint);
    if (mode.kind === 'identity-token') return this.clientCredentials(mode);
    throw new AiCredentialError(`mode ${mode.kind} has no token`);
  }

  /** issueToken with the current key; a refused key fails over to the next one (once each). */
  private async exchangeKey(keys: readonly string[], stsEndpoint: string): Promise<CachedToken> {
    let last: AiCredentialError | undefined;
    for (let attempt = 0; attempt < keys.length; attempt += 1) {
      const key = keys[this.keyIndex] ?? '';
      const requestedAt = this.clock();
      this.tokenRequests += 1;
      const response = await this.fetch(`${stsEndpoint.replace(/\/+$/, '')}/sts/v1.0/issueToken`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Ocp-Apim-Subscription-Key': key,
        },
      });
      const body = await response.text();
      if (response.ok) {
        return {
          value: body.trim(),
          expiresAt: expiryOfJwt(body) ?? requestedAt + EXCHANGED_TOKEN_LIFETIME_MS,
        };
      }
      last = new AiCredentialError(`issueToken answered ${response.status}`, response.status, body);
      if (response.status !== 401 && response.status !== 403) throw last;
      this.keyIndex = (this.keyIndex + 1) % keys.length;
    }
    throw last ?? new AiCredentialError('no key to exchange');
  }

  private async clientCredentials(
    mode: Extract<AiCredentialMode, { kind: 'identity-token' }>,
  ): Promise<CachedToken> {
    const requestedAt = this.clock();
    this.tokenRequests += 1;
    const response = await this.fetch(mode.tokenEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: mode.clientId,
        client_secret: mode.clientSecret,
        scope: mode.scope ?? COGNITIVE_SERVICES_SCOPE,
      }).toString(),
    });
    const text = await response.text();
    if (!response.ok)
      throw new AiCredentialError(`token endpoint answered ${response.status}`, response.status, text);
    const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string')
      throw new AiCredentialError('token endpoint answered without access_token', response.status, text);
    const expiresIn = Number(body.expires_in);
    return {
      value: body.access_token,
      expiresAt:
        Number.isFinite(expiresIn) && expiresIn > 0
          ? requestedAt + expiresIn * 1000
          : (expiryOfJwt(body.access_token) ?? requestedAt),
    };
  }
}
