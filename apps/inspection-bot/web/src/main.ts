/**
 * The chat page's behaviour: the session (`api/session`), sign-in and sign-out, the Direct Line token
 * (`api/directline/token`, signed-in sessions only) and Web Chat with its connection states shown as words.
 * The locale is `?locale=` or the browser's, as the bot's language is.
 */
import './chat-page.css';
import { ChatView, type WebChatAction } from './chat-view';
import { api, type DirectLineSession, type SessionUser } from './page-api';
import { fill, pageLocale, readPageSettings } from './page-settings';

const settings = readPageSettings();
const text = settings.text;
const locale = pageLocale(settings);

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from the page`);
  return found as T;
}

const status = element('status');
const signInSection = element('sign-in');
const form = element<HTMLFormElement>('sign-in-form');
const errorBox = element('sign-in-error');
const button = element<HTMLButtonElement>('sign-in-button');
const username = element<HTMLInputElement>('username');
const password = element<HTMLInputElement>('password');
const chatSection = element('chat');
const chat = new ChatView(chatSection);
let lastRenewal = 0;
let greeted = false;

function show(message: string, isError = false): void {
  status.textContent = message;
  status.classList.toggle('error', isError);
}

function showAccount(user: SessionUser | undefined): void {
  element('who').textContent = user ? fill(text.signedInAs, { name: user.username }) : '';
  element('sign-out').hidden = !user;
}

function showSignIn(message = ''): void {
  chat.stop();
  showAccount(undefined);
  show(message);
  signInSection.hidden = false;
  button.disabled = false;
  button.textContent = text.signIn;
  password.value = '';
  (username.value ? password : username).focus();
}

/** Web Chat's connection states, as words on the status line. */
function connectionState(action: WebChatAction): void {
  switch (action.type) {
    case 'DIRECT_LINE/CONNECT_PENDING':
      show(text.connecting);
      break;
    case 'DIRECT_LINE/CONNECT_REJECTED':
      show(text.connectionError, true);
      break;
    case 'DIRECT_LINE/UPDATE_CONNECTION_STATUS': {
      const state = action.payload?.connectionStatus;
      if (state === 1 || state === 3) show(text.reconnecting);
      else if (state === 2) show(greeted ? '' : text.empty);
      else if (state === 4) show(text.connectionError, true);
      break;
    }
    case 'DIRECT_LINE/INCOMING_ACTIVITY':
      if (action.payload?.activity?.from?.role === 'bot') greeted = true;
      if (status.textContent === text.empty) show('');
      break;
    default:
      break;
  }
}

/** On a wide screen the send box takes the focus once Web Chat has drawn it. */
function focusSendBox(): void {
  if (!window.matchMedia('(min-width: 700px)').matches) return;
  const observer = new MutationObserver(() => {
    const box = chatSection.querySelector<HTMLElement>('textarea, input[type="text"]');
    if (!box) return;
    observer.disconnect();
    box.focus();
  });
  observer.observe(chatSection, { childList: true, subtree: true });
}

async function startChat(user: SessionUser): Promise<void> {
  signInSection.hidden = true;
  showAccount(user);
  show(text.connecting);
  const response = await api('POST', 'api/directline/token', { locale });
  if (response.status === 401) return showSignIn(text.sessionEnded);
  if (!response.ok) throw new Error(text.unavailable);
  const session = (await response.json()) as DirectLineSession;
  greeted = false;
  chat.start(session, locale, connectionState);
  focusSendBox();
}

function renew(): void {
  // The session (and its inspection-api tokens) is renewed while the user is active: at most once a minute.
  if (!chat.running || Date.now() - lastRenewal < 60_000) return;
  lastRenewal = Date.now();
  api('GET', 'api/session')
    .then(async (response) => {
      if (!response.ok) return;
      const body = (await response.json()) as { user?: SessionUser };
      if (!body.user) showSignIn(text.sessionEnded);
    })
    .catch(() => undefined);
}
for (const name of ['keydown', 'pointerdown']) document.addEventListener(name, renew, { passive: true });

function signInFailed(message: string): void {
  errorBox.textContent = message;
  errorBox.hidden = false;
  button.disabled = false;
  button.textContent = text.signIn;
}

async function signIn(): Promise<void> {
  const name = username.value.trim();
  if (!name || !password.value) {
    (name ? password : username).focus();
    return;
  }
  errorBox.hidden = true;
  button.disabled = true;
  button.textContent = text.signingIn;
  try {
    const response = await api('POST', 'api/session', { username: name, password: password.value });
    if (response.ok) {
      const body = (await response.json()) as { user: SessionUser };
      lastRenewal = Date.now();
      await startChat(body.user);
      return;
    }
    let message = text.unavailable;
    if (response.status === 401) message = text.wrongPassword;
    else if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after')) || 60;
      message = fill(text.throttled, { minutes: String(Math.max(1, Math.ceil(seconds / 60))) });
    }
    signInFailed(message);
    password.value = '';
    password.focus();
  } catch {
    signInFailed(text.unavailable);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn();
});

element('sign-out').addEventListener('click', () => {
  void api('DELETE', 'api/session')
    .catch(() => undefined)
    .finally(() => showSignIn(text.signedOut));
});

/** A returning user with a live session goes straight to the chat. */
async function boot(): Promise<void> {
  try {
    const response = await api('GET', 'api/session');
    if (!response.ok) throw new Error(text.unavailable);
    const body = (await response.json()) as { user?: SessionUser };
    if (!body.user) return showSignIn();
    lastRenewal = Date.now();
    await startChat(body.user);
  } catch (error) {
    show(error instanceof Error && error.message ? error.message : text.unavailable, true);
    signInSection.hidden = false;
  }
}

void boot();

// The service worker keeps the page shell for a reload without a network (sw.js beside the page).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => undefined);
}
