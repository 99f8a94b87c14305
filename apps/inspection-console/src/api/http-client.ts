import { HttpError } from 'react-admin';
import { tokenStore, tokenExpiry } from '../auth/token-store';
import { apiUrl } from './api-url';
import { drfErrorMessage, drfFieldErrors } from './drf-errors';

/** Refresh the access token when it has less than this many seconds left (simplejwt's default lifetime: 5 min). */
const REFRESH_MARGIN_SECONDS = 30;

let refreshing: Promise<void> | null = null;

/** Trades the refresh token for a new access token (`POST /api/token/refresh/`); one refresh at a time. */
export function refreshAccessToken(): Promise<void> {
  refreshing ??= (async () => {
    const tokens = tokenStore.read();
    if (!tokens) throw new HttpError('Not signed in', 401);
    const response = await fetch(apiUrl('token/refresh/'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refresh: tokens.refresh }),
    });
    if (!response.ok) {
      tokenStore.clear();
      throw new HttpError('Your session has expired. Please sign in again.', 401);
    }
    const body = (await response.json()) as { access: string; refresh?: string };
    tokenStore.write({ access: body.access, refresh: body.refresh ?? tokens.refresh });
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function freshAccessToken(): Promise<string | null> {
  const tokens = tokenStore.read();
  if (!tokens) return null;
  if (tokenExpiry(tokens.access) - REFRESH_MARGIN_SECONDS < Date.now() / 1000) await refreshAccessToken();
  return tokenStore.read()?.access ?? null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: URLSearchParams;
  body?: unknown;
}

/**
 * A bearer request to inspection-api. The access token is refreshed before it expires, and once more after a 401
 * (a token that expired in flight). DRF error bodies become react-admin `HttpError`s whose `body.errors` holds
 * field errors in the form's shape, so react-admin shows them under the inputs.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<Response> {
  const send = async (): Promise<Response> => {
    const access = await freshAccessToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (access) headers.Authorization = `Bearer ${access}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(apiUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  };
  let response = await send();
  if (response.status === 401 && tokenStore.read()) {
    await refreshAccessToken();
    response = await send();
  }
  if (!response.ok) throw await httpErrorOf(response);
  return response;
}

export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiRequest(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function httpErrorOf(response: Response): Promise<HttpError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const errors = drfFieldErrors(body);
  return new HttpError(drfErrorMessage(body, response.status), response.status, {
    ...asObject(body),
    errors,
  });
}

function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
