import { apiUrl } from '../api/api-url';
import { tokenStore } from './token-store';

/** `GET /api/oidc/`: the company's provider (if configured) and whether passwords are accepted. */
export interface SignInOptions {
  provider: { name: string; login_url: string } | null;
  local_passwords: boolean;
}

/** The sign-in page's choices; passwords only when the API cannot say (an older API, a failure). */
export async function signInOptions(): Promise<SignInOptions> {
  try {
    const response = await fetch(apiUrl('oidc/'), { headers: { Accept: 'application/json' } });
    if (!response.ok) return { provider: null, local_passwords: true };
    return (await response.json()) as SignInOptions;
  } catch {
    return { provider: null, local_passwords: true };
  }
}

/** This page's address without a finished sign-in's parameters. */
function pageAddress(): URL {
  const url = new URL(window.location.href);
  url.searchParams.delete('oidc_code');
  url.searchParams.delete('oidc_error');
  return url;
}

/**
 * Where the provider's button goes: the API's login with `next` = this page at `route` (the screen the person was
 * sent to sign-in from), a path on the console's own origin.
 */
export function providerLoginHref(loginUrl: string, route: string): string {
  const page = pageAddress();
  page.hash = route;
  const url = new URL(loginUrl, window.location.href);
  url.searchParams.set('next', `${page.pathname}${page.search}${page.hash}`);
  return url.href;
}

/** The error a sign-in through the provider came back with (`oidc_error`), if any. */
export function providerSignInError(): string | null {
  return new URLSearchParams(window.location.search).get('oidc_error');
}

/**
 * Finishes a sign-in the provider sent back with `oidc_code`: exchanges it at `POST /api/oidc/token/` for the token
 * pair (once; a used or expired code leaves the person signed out, on the sign-in page with an error) and takes the
 * code off the address. Runs before the app renders, so the first screen is already signed in.
 */
export async function completeProviderSignIn(onSignedIn: () => void): Promise<void> {
  const code = new URLSearchParams(window.location.search).get('oidc_code');
  if (!code) return;
  const clean = pageAddress();
  try {
    const response = await fetch(apiUrl('oidc/token/'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ code }),
    });
    if (response.ok) {
      tokenStore.write((await response.json()) as { access: string; refresh: string });
      onSignedIn();
    } else {
      clean.searchParams.set('oidc_error', 'expired');
    }
  } catch {
    clean.searchParams.set('oidc_error', 'temporarily_unavailable');
  }
  window.history.replaceState(window.history.state, '', clean.href);
}
