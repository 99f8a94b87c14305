import { type Browser, type Page } from 'playwright-core';
import { openPage, type OpenedPage } from './browser';

// The chat page's browser tests' set-up (`@fieldops/testing/chat-page`): an inspection-api account of the test's
// own, and a browser signed in with it on the inspection bot's chat page. The chat page opens a person's home
// conversation (the one the bot's proactive cards go to), so two browsers signed in with one account share a
// transcript: each test, and each browser of a test that must be told apart, signs in with an account of its own.

/** An inspection-api account made for one test (or one browser of a test). */
export interface TestAccount {
  id: number;
  username: string;
  password: string;
  role: 'inspector' | 'supervisor';
}

/** inspection-api and a supervisor's credentials there (who makes the test's accounts). */
export interface AccountMaker {
  url: string;
  supervisor: { username: string; password: string };
}

let accountsMade = 0;

/**
 * A new inspection-api account (`POST /api/users/` as the supervisor): `username` by default `<role>-<n>` with n
 * counting this process's accounts, and a password of its own.
 */
export async function createAccount(
  api: AccountMaker,
  options: { username?: string; role?: TestAccount['role'] } = {},
): Promise<TestAccount> {
  const role = options.role ?? 'inspector';
  accountsMade += 1;
  const username = options.username ?? `${role}-${accountsMade}`;
  const password = `${username}-password-${accountsMade}`;
  const token = await fetch(`${api.url}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(api.supervisor),
  });
  if (!token.ok) throw new Error(`token for ${api.supervisor.username}: ${token.status}`);
  const { access } = (await token.json()) as { access: string };
  const response = await fetch(`${api.url}/api/users/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, role }),
  });
  if (response.status !== 201)
    throw new Error(`user ${username}: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: number };
  return { id, username, password, role };
}

/** Fills the chat page's sign-in form with the account (or another password) and submits it; waits for nothing. */
export async function submitChatSignIn(
  page: Page,
  account: ChatAccount,
  password = account.password,
): Promise<void> {
  await page.locator('#username').fill(account.username);
  await page.locator('#password').fill(password);
  await page.locator('#sign-in-button').click();
}

/** The bot's greeting at a sign-in, in the page's language. */
export function chatWelcome(username: string, locale: string): string {
  return locale.startsWith('zh') ? `${username}，您好！` : `Hello ${username}!`;
}

/** Who signs in on the chat page with a password. */
export interface ChatAccount {
  username: string;
  password: string;
}

export interface SignedInChat<A extends ChatAccount> extends OpenedPage {
  account: A;
}

/**
 * A fresh browser profile signed in on the chat page: with the account given, or a new inspector made through
 * inspection-api (`api`); the page opened at `path` (by default `/?locale=<locale>`), signed in, and the bot's
 * welcome shown.
 */
export async function openSignedInChat<A extends ChatAccount = TestAccount>(
  browser: Browser,
  options: {
    chatUrl: string;
    viewport: { width: number; height: number };
    locale: string;
    path?: string;
    timezoneId?: string;
    errors?: string[];
    ignore?: (text: string) => boolean;
  } & ({ account: A } | { api: AccountMaker }),
): Promise<SignedInChat<A>> {
  const { chatUrl, locale, path } = options;
  const account = ('account' in options ? options.account : await createAccount(options.api)) as A;
  const opened = await openPage(browser, options);
  try {
    await opened.page.goto(`${chatUrl}${path ?? `/?locale=${locale}`}`);
    await submitChatSignIn(opened.page, account);
    await opened.page.getByText(chatWelcome(account.username, locale)).first().waitFor({ timeout: 30_000 });
  } catch (error) {
    await opened.context.close();
    throw error;
  }
  return { ...opened, account };
}
