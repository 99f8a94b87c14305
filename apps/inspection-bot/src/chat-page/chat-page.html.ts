import { type PageLanguage, type PageText } from './chat-page-text';

export interface ChatPageSettings {
  language: PageLanguage;
  text: PageText;
}

/** JSON inside a <script> element: nothing can close the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The chat page: a header (product name, the signed-in user, sign-out), a status line for the connection states,
 * the sign-in form, and Web Chat (the npm package's prebuilt bundle) once signed in. Its behaviour is
 * `chat-page.js`, its look `chat-page.css` (no inline script: the page runs under a strict CSP).
 */
export function renderChatPage({ language, text }: ChatPageSettings): string {
  const t = (key: keyof PageText): string => escapeHtml(text[key]);
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#17324d">
<title>${t('title')}</title>
<link rel="stylesheet" href="chat-page.css">
</head>
<body>
<header class="bar">
  <div class="brand">
    <span class="mark" aria-hidden="true">✓</span>
    <div class="titles"><span class="name">${t('title')}</span><span class="who" id="who"></span></div>
  </div>
  <button type="button" class="sign-out" id="sign-out" hidden>${t('signOut')}</button>
</header>
<p class="status" id="status" role="status" aria-live="polite">${t('loading')}</p>
<main id="main">
  <section class="sign-in" id="sign-in" aria-labelledby="sign-in-heading" hidden>
    <h1 id="sign-in-heading">${t('signInHeading')}</h1>
    <p class="hint">${t('signInHint')}</p>
    <form id="sign-in-form" novalidate>
      <label for="username">${t('username')}</label>
      <input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="150" required>
      <label for="password">${t('password')}</label>
      <input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required>
      <p class="error" id="sign-in-error" role="alert" hidden></p>
      <button type="submit" id="sign-in-button">${t('signIn')}</button>
    </form>
  </section>
  <section class="chat" id="chat" aria-label="${t('chatLabel')}" hidden></section>
</main>
<script id="chat-settings" type="application/json">${scriptJson({ language, text })}</script>
<script src="webchat.js"></script>
<script src="chat-page.js"></script>
</body>
</html>
`;
}
