import { type AuthProvider, HttpError } from 'react-admin';
import { apiUrl } from '../api/api-url';
import { dataProvider } from '../api/data-provider';
import { type ConsoleUser } from '../api/resources';
import { tokenStore } from './token-store';

const USER_KEY = 'fieldops.console.user';

function storedUser(): ConsoleUser | null {
  try {
    return JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as ConsoleUser | null;
  } catch {
    return null;
  }
}

/** Forgets the signed-in user's account (read again from the API): a new sign-in through the provider. */
export function forgetStoredUser(): void {
  localStorage.removeItem(USER_KEY);
}

async function loadUser(): Promise<ConsoleUser> {
  const user = await dataProvider.me();
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  return user;
}

/**
 * Sign-in with an inspection-api account: `POST /api/token/` (simplejwt) for the token pair, then
 * `GET /api/users/me/` for the role. Every signed-in user gets in; the layout shows inspectors the
 * "supervisors only" page instead of the screens (the API refuses their writes anyway).
 */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const response = await fetch(apiUrl('token/'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { detail?: string };
      throw new HttpError(
        response.status === 401 ? 'console.auth.bad_credentials' : (body.detail ?? `HTTP ${response.status}`),
        response.status,
      );
    }
    tokenStore.write((await response.json()) as { access: string; refresh: string });
    await loadUser();
  },
  logout() {
    tokenStore.clear();
    localStorage.removeItem(USER_KEY);
    return Promise.resolve();
  },
  checkAuth() {
    return tokenStore.read() ? Promise.resolve() : Promise.reject(new Error('Not signed in'));
  },
  checkError(error: { status?: number }) {
    // 401 survives one refresh in the HTTP client, so here it means the session is over. 403 is a refusal of one
    // action (shown as a notification), not a reason to sign out.
    if (error?.status === 401) {
      tokenStore.clear();
      return Promise.reject(new Error('Session expired'));
    }
    return Promise.resolve();
  },
  async getIdentity() {
    const user = storedUser() ?? (await loadUser());
    return { id: user.id, fullName: user.username, role: user.role };
  },
  async getPermissions() {
    const user = storedUser() ?? (await loadUser());
    return user.role;
  },
};
