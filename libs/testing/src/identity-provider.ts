import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '@fieldops/platform';

/** A port free right now on loopback (for a server whose address must be known before it starts). */
export { freePort };

export interface IdentityProviderClient {
  id: string;
  secret?: string;
  /** Lifetime of the access tokens it gets (default 3600). */
  accessTokenSeconds?: number;
}

export interface RunningIdentityProvider {
  issuer: string;
  stop(): Promise<void>;
}

/**
 * Starts oidc-provider (libs/testing/oidc-provider.mjs) in a child process on `port`. Every login name signs in
 * (any password); its claims are `sub`, `name` and `preferred_username` (the login name) plus what `accounts` gives
 * it (e.g. `{"ines": {"groups": ["fieldops-inspectors"]}}`; `groups` is released with the `groups` scope).
 */
export async function startIdentityProvider(options: {
  port: number;
  redirectUris: string[];
  clients: IdentityProviderClient[];
  accounts?: Record<string, Record<string, unknown>>;
}): Promise<RunningIdentityProvider> {
  const child: ChildProcess = spawn(
    process.execPath,
    // From src/ (ts-jest) and dist/ (built) alike: the script sits beside them.
    [join(__dirname, '..', 'oidc-provider.mjs'), JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}): ${errors}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** What the cookie-keeping client ended on. */
export interface Page {
  url: string;
  status: number;
  text: string;
}

/**
 * A browser without a page engine: keeps cookies per host name (as browsers do: ignoring ports and paths), follows
 * redirects, submits forms. Enough for oidc-provider's development login and consent pages and the connector's
 * sign-in pages.
 */
export class CookieClient {
  private readonly jar = new Map<string, Map<string, string>>();
  /** Every URL requested, in order. */
  readonly visited: string[] = [];

  async get(url: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.follow(url, { method: 'GET', headers });
  }

  /** Submits the page's first form (its `action`) with `fields` added to the form's hidden inputs. */
  async submit(page: Page, fields: Record<string, string> = {}): Promise<Page> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    if (!action) throw new Error(`no form on ${page.url}: ${page.text.slice(0, 300)}`);
    const hidden = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const body = new URLSearchParams({ ...hidden, ...fields }).toString();
    return this.follow(new URL(action.replace(/&amp;/g, '&'), page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  }

  private async follow(url: string, init: RequestInit): Promise<Page> {
    let current = url;
    let request = init;
    for (let hop = 0; hop < 20; hop += 1) {
      this.visited.push(current);
      const host = new URL(current).hostname;
      const cookies = this.jar.get(host) ?? new Map<string, string>();
      const response = await fetch(current, {
        ...request,
        redirect: 'manual',
        headers: {
          ...(request.headers as Record<string, string> | undefined),
          ...(cookies.size > 0 && {
            cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          }),
        },
      });
      for (const header of response.headers.getSetCookie()) {
        const [pair] = header.split(';');
        const index = pair?.indexOf('=') ?? -1;
        if (!pair || index < 0) continue;
        const name = pair.slice(0, index).trim();
        const value = pair.slice(index + 1).trim();
        if (/expires=Thu, 01 Jan 1970/i.test(header) || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
      this.jar.set(host, cookies);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        current = new URL(location, current).href;
        request = { method: 'GET' };
        continue;
      }
      return { url: current, status: response.status, text: await response.text() };
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/** Follows a sign-in link through the provider's login and consent pages as `login`; the page it ends on. */
export async function signInAt(link: string, login: string, browser = new CookieClient()): Promise<Page> {
  let page = await browser.get(link);
  for (let step = 0; step < 4 && /name="prompt" value="(login|consent)"/.test(page.text); step += 1) {
    const prompt = /name="prompt" value="(login|consent)"/.exec(page.text)?.[1];
    page = await browser.submit(page, prompt === 'login' ? { login, password: 'any-password' } : {});
  }
  return page;
}

/**
 * What Web Chat does with an OAuthCard's sign-in button in `browser`: asks the relay for the Direct Line session
 * (`getsessionid`, which sets the session cookie in that browser) and appends it URL-encoded to the link.
 */
export async function webChatSignInLink(
  link: string,
  relayUrl: string,
  secret: string,
  browser: CookieClient,
): Promise<string> {
  const page = await browser.get(`${relayUrl}/v3/directline/session/getsessionid`, {
    Authorization: `Bearer ${secret}`,
  });
  const { sessionId } = JSON.parse(page.text) as { sessionId: string };
  return `${link}${encodeURIComponent(`&code_challenge=${sessionId}`)}`;
}

/** The connector's "signed in, go back to the chat" page (the token went straight to the bot). */
export function isSignedInPage(page: Page): boolean {
  return page.status === 200 && page.text.includes('data-signed-in');
}

/**
 * An ID token the provider issues to `client` for `login` (authorization code + PKCE, redirected to `redirectUri`,
 * a page that answers anything): the token an SSO client already holds for that provider.
 */
export async function idTokenFrom(
  issuer: string,
  client: { id: string; secret: string },
  redirectUri: string,
  login: string,
): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${issuer}/auth`);
  for (const [name, value] of Object.entries({
    client_id: client.id,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  const page = await signInAt(authorize.href, login);
  const code = new URL(page.url).searchParams.get('code');
  if (!code) throw new Error(`no code at ${page.url}: ${page.text.slice(0, 300)}`);
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await response.json()) as { id_token?: string };
  if (!body.id_token) throw new Error(`no id_token: ${JSON.stringify(body)}`);
  return body.id_token;
}

/** The six-digit code on the connector's "signed in" page. */
export function magicCodeOn(page: Page): string {
  const code = /data-magic-code="(\d{6})"/.exec(page.text)?.[1];
  if (!code) throw new Error(`no magic code on ${page.url} (${page.status}): ${page.text.slice(0, 500)}`);
  return code;
}
