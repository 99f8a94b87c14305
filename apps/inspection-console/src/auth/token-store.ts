/** The simplejwt token pair, kept in localStorage so a reload keeps the session (refresh tokens live a day). */
export interface TokenPair {
  access: string;
  refresh: string;
}

const KEY = 'fieldops.console.tokens';

export const tokenStore = {
  read(): TokenPair | null {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<TokenPair> | null;
      return value && typeof value.access === 'string' && typeof value.refresh === 'string'
        ? { access: value.access, refresh: value.refresh }
        : null;
    } catch {
      return null;
    }
  },
  write(tokens: TokenPair): void {
    localStorage.setItem(KEY, JSON.stringify(tokens));
  },
  clear(): void {
    localStorage.removeItem(KEY);
  },
};

/** Seconds since the epoch at which a JWT expires (its `exp` claim), or 0 when it cannot be read. */
export function tokenExpiry(jwt: string): number {
  try {
    const payload = jwt.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : 0;
  } catch {
    return 0;
  }
}
