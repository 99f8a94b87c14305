/**
 * The chat page's behaviour: the session (`api/session`), sign-in and sign-out, the Direct Line token
 * (`api/directline/token`, signed-in sessions only), Web Chat on the page's own Direct Line connection (an outbox
 * on the device, the conversation rejoined after a reload), the link's state and the pending count as words,
 * and a QR label's device (`?device=CODE`, or `/d/CODE` redirected here) opened once.
 * The locale is `?locale=` or the browser's, as the bot's language is.
 */
import './chat-page.css';
import { ChatView, type WebChatAction } from './chat-view';
import { PageDatabaseStore } from './outbox-store';
import { OutboxView } from './outbox-view';
import { api, type DirectLineSession, type SessionUser } from './page-api';
import {
  type LinkState,
  PageDirectLine,
  type RefusalReason,
  type RememberedConversation,
} from './page-direct-line';
import { fill, pageLocale, readPageSettings } from './page-settings';
import { UnseenActivities } from './unseen';

const settings = readPageSettings();
const text = settings.text;
const locale = pageLocale(settings);
const database = new PageDatabaseStore();
const outbox = new OutboxView();
const unseen = new UnseenActivities();
const REMEMBERED = 'fieldops.chat.conversation';
const DEVICE = 'fieldops.chat.device';

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
const pendingBadge = element('pending');
const unseenBadge = element<HTMLButtonElement>('unseen');
const chat = new ChatView(chatSection);
let directLine: PageDirectLine | undefined;
let lastRenewal = 0;
let greeted = false;
let link: LinkState = 'connecting';

// A QR label's device: kept for this tab until the chat has asked for it (through a sign-in if need be).
const askedDevice = new URLSearchParams(window.location.search).get('device');
if (askedDevice) {
  sessionStorage.setItem(DEVICE, askedDevice.trim().slice(0, 64));
  const url = new URL(window.location.href);
  url.searchParams.delete('device');
  history.replaceState(null, '', url);
}

function show(message: string, isError = false): void {
  status.textContent = message;
  status.classList.toggle('error', isError);
}

/** The link's state and the outbox's count, as words above the chat. */
function showLink(): void {
  const pending = outbox.pending;
  pendingBadge.hidden = pending === 0;
  pendingBadge.textContent = fill(text.pendingCount, { count: String(pending) });
  if (!chat.running) return;
  if (link === 'offline') show(text.offline, true);
  else if (link === 'reconnecting') show(text.reconnecting, true);
  else if (link === 'connecting') show(text.connecting);
  else if (link === 'failed') show(text.connectionError, true);
  else show(greeted ? '' : text.empty);
}

/**
 * "Signed in as alice.inspector" in the header, on one line: the words before the name are a label a phone hides
 * (screen readers still say it; the whole line is the element's title), so the name has the width.
 */
/** "N new" in the header while the chat shows cards that arrived since the person last saw it; a tap goes there. */
function showUnseen(): void {
  const count = unseen.count;
  unseenBadge.hidden = count === 0;
  unseenBadge.textContent = fill(text.unseenCount, { count: String(count) });
}
unseen.subscribe(showUnseen);
unseenBadge.addEventListener('click', () => {
  document.getElementById('unseen-line')?.scrollIntoView({ block: 'start' });
  unseen.clear();
});

function showAccount(user: SessionUser | undefined): void {
  const who = element('who');
  who.replaceChildren();
  who.removeAttribute('title');
  element('sign-out').hidden = !user;
  if (!user) return;
  const [before = '', after = ''] = text.signedInAs.split('{name}');
  const part = (className: string, words: string): HTMLSpanElement => {
    const span = document.createElement('span');
    span.className = className;
    span.textContent = words;
    return span;
  };
  who.append(part('who-label', before), part('who-name', user.username));
  if (after) who.append(part('who-label', after));
  who.title = fill(text.signedInAs, { name: user.username });
}

function stopChat(): void {
  chat.stop();
  unseen.reset();
  directLine = undefined;
}

/** The provider's button and the password form, as inspection-api allows (`api/session/options`). */
async function showSignInChoices(): Promise<void> {
  try {
    const response = await api('GET', 'api/session/options');
    if (!response.ok) return;
    const options = (await response.json()) as { provider: string | null; passwords: boolean };
    const link = element<HTMLAnchorElement>('provider-sign-in');
    if (options.provider) {
      link.textContent = fill(text.signInWith, { name: options.provider });
      link.href = `api/session/oidc/start?locale=${encodeURIComponent(locale)}`;
      link.hidden = false;
    }
    element('sign-in-or').hidden = !options.provider || !options.passwords;
    form.hidden = !options.passwords;
  } catch {
    // Offline: the password form stays.
  }
}

// A sign-in through the provider that did not complete comes back with its reason.
const providerError = new URLSearchParams(window.location.search).get('sign_in_error');
if (providerError) {
  const box = element('provider-error');
  box.textContent = providerError === 'access_denied' ? text.providerDenied : text.providerFailed;
  box.hidden = false;
  const url = new URL(window.location.href);
  url.searchParams.delete('sign_in_error');
  history.replaceState(null, '', url);
}

function showSignIn(message = ''): void {
  void showSignInChoices();
  stopChat();
  showAccount(undefined);
  show(message);
  signInSection.hidden = false;
  button.disabled = false;
  button.textContent = text.signIn;
  password.value = '';
  (username.value ? password : username).focus();
  showLink();
}

function remembered(): RememberedConversation | undefined {
  try {
    return (
      (JSON.parse(localStorage.getItem(REMEMBERED) ?? 'null') as RememberedConversation | null) ?? undefined
    );
  } catch {
    return undefined;
  }
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '');
}

function describe(reason: RefusalReason): string {
  if (reason.kind === 'too-large') {
    return fill(text.photoTooLarge, {
      size: megabytes(reason.bytes),
      limit: reason.limitBytes ? megabytes(reason.limitBytes) : '?',
    });
  }
  if (reason.kind === 'not-a-photo') return text.notAPhoto;
  return fill(text.refused, { code: reason.code ?? String(reason.status) });
}

async function requestToken(
  conversation?: RememberedConversation,
): Promise<DirectLineSession | 'signed-out'> {
  const response = await api('POST', 'api/directline/token', {
    locale,
    ...(conversation ? { conversationId: conversation.conversationId, token: conversation.token } : {}),
  });
  if (response.status === 401) return 'signed-out';
  if (!response.ok) throw new Error(text.unavailable);
  return (await response.json()) as DirectLineSession;
}

/** Web Chat's actions the page watches: the bot's first words; a second answer to an answered card is dropped. */
function watch(action: WebChatAction): boolean | void {
  const posted = action.type === 'DIRECT_LINE/POST_ACTIVITY' ? action.payload?.activity : undefined;
  if (posted && directLine && !directLine.takesAnswer(posted)) return false;
  // The person acts in the chat: the "N new" marker has done its work.
  if (posted) unseen.clear();
  if (action.type === 'DIRECT_LINE/INCOMING_ACTIVITY' && action.payload?.activity) {
    unseen.received(action.payload.activity);
  }
  if (action.type === 'DIRECT_LINE/INCOMING_ACTIVITY' && action.payload?.activity?.from?.role === 'bot') {
    if (!greeted) {
      greeted = true;
      showLink();
    }
  }
}

/** Once the chat runs: the QR label's device is asked for (through the outbox: once, offline too). */
function openAskedDevice(): void {
  const code = sessionStorage.getItem(DEVICE);
  if (!code || !directLine) return;
  sessionStorage.removeItem(DEVICE);
  directLine
    .postActivity({
      type: 'event',
      name: 'openDevice',
      value: { code, source: 'qr' },
      from: { id: directLine.userId, role: 'user' },
      channelData: { clientActivityID: crypto.randomUUID() },
    })
    .subscribe({ error: () => undefined });
}

/** Web Chat on the page's connection, for an account (online: its token; offline: the remembered one). */
function runChat(
  user: SessionUser,
  session: DirectLineSession | undefined,
  kept: RememberedConversation | undefined,
): void {
  const userId = session?.userId ?? kept?.userId;
  const userName = session?.userName ?? kept?.userName ?? user.username;
  if (!userId) throw new Error(text.unavailable);
  signInSection.hidden = true;
  showAccount(user);
  greeted = false;
  unseen.reset();
  link = navigator.onLine ? 'connecting' : 'offline';
  let first = session;
  directLine = new PageDirectLine({
    userId,
    userName,
    locale,
    store: database,
    remembered: kept && kept.userId === userId ? kept : undefined,
    token: async (conversation) => {
      if (first && (!conversation || first.conversationId === conversation.conversationId)) {
        const given = first;
        first = undefined;
        return given;
      }
      first = undefined;
      return requestToken(conversation);
    },
    remember: (conversation) => localStorage.setItem(REMEMBERED, JSON.stringify(conversation)),
    onLink: (state) => {
      if (state === 'signed-out') {
        // The session ended (maybe while offline): sign in again; the outbox stays and is sent afterwards.
        showSignIn(text.sessionEnded);
        return;
      }
      link = state;
      showLink();
    },
    onOutbox: (entries) => {
      outbox.set(entries);
      showLink();
    },
    describe,
    keepPhotoMetadata: settings.keepPhotoMetadata === true,
  });
  chat.start(directLine, {
    text,
    outbox,
    unseen,
    locale,
    userId,
    userName,
    onAction: watch,
    retry: (id) => void directLine?.retry(id),
    discard: (id) => void directLine?.discard(id),
  });
  showLink();
  openAskedDevice();
  focusSendBox();
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

/** Signed in (or a live session): the token for the remembered conversation (rejoined) or a new one. */
async function startChat(user: SessionUser): Promise<void> {
  signInSection.hidden = true;
  showAccount(user);
  show(text.connecting);
  let kept = remembered();
  if (kept && kept.userName !== user.username) {
    localStorage.removeItem(REMEMBERED);
    kept = undefined;
  }
  const session = await requestToken(kept);
  if (session === 'signed-out') return showSignIn(text.sessionEnded);
  runChat(user, session, kept);
}

function renew(): void {
  // The session (and its inspection-api tokens) is renewed while the user is active: at most once a minute.
  if (!chat.running || !navigator.onLine || Date.now() - lastRenewal < 60_000) return;
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
    signInFailed(navigator.onLine ? text.unavailable : text.offlineSignIn);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn();
});

element('sign-out').addEventListener('click', () => {
  // The conversation and its transcript are forgotten; answers not yet sent stay for this account's next sign-in.
  localStorage.removeItem(REMEMBERED);
  void database.clearTranscripts().catch(() => undefined);
  void api('DELETE', 'api/session')
    .catch(() => undefined)
    .finally(() => showSignIn(text.signedOut));
});

/**
 * A returning user with a live session goes straight to the chat; without a network, a user who was signed in
 * gets the chat as it was (the transcript and the outbox on the device) until the network returns.
 */
async function boot(): Promise<void> {
  let response: Response;
  try {
    response = await api('GET', 'api/session');
  } catch {
    const kept = remembered();
    if (kept) {
      runChat({ username: kept.userName }, undefined, kept);
      return;
    }
    show(text.offlineSignIn, true);
    signInSection.hidden = false;
    return;
  }
  try {
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
