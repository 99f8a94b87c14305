import { CHECKED_BY_MAX_LENGTH } from '../inspection-api/inspection-api.types';

export interface ChatPageSettings {
  /** Locale when neither `?locale=` nor the browser names one. */
  defaultLocale: string;
  /** Page title and heading. */
  title: string;
}

/** JSON inside a <script> element: nothing can close the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The chat page: asks for the inspector's name (or takes `?name=`), gets a Direct Line token from this server
 * (`POST api/directline/token`) and renders Web Chat (the npm package's prebuilt bundle, served at `webchat.js`)
 * against the relay; `?locale=` or the browser's language sets Web Chat's locale (and so the bot's language).
 */
export function renderChatPage(settings: ChatPageSettings): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(settings.title)}</title>
<style>
  html, body { height: 100%; margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f3f4f6; }
  body { display: flex; flex-direction: column; }
  header { background: #1f4e79; color: #fff; padding: 10px 16px; display: flex; align-items: center; gap: 12px; }
  header h1 { font-size: 18px; margin: 0; flex: 1; }
  header .who { font-size: 14px; opacity: 0.9; }
  main { flex: 1; display: flex; justify-content: center; min-height: 0; }
  #webchat { width: 100%; max-width: 760px; height: 100%; background: #fff; }
  form { margin: 48px auto; background: #fff; padding: 24px; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.15); max-width: 360px; }
  form label { display: block; margin-bottom: 8px; }
  form input { width: 100%; box-sizing: border-box; padding: 8px; font-size: 16px; margin-bottom: 12px; }
  form button { padding: 8px 16px; font-size: 16px; }
  #status { color: #b00020; padding: 8px 16px; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<header><h1>${escapeHtml(settings.title)}</h1><span class="who" id="who"></span></header>
<div id="status" role="alert" hidden></div>
<main>
  <form id="start" hidden>
    <label for="name">Your name (recorded as the inspector)</label>
    <input id="name" name="name" autocomplete="name" maxlength="${CHECKED_BY_MAX_LENGTH}" required>
    <button type="submit">Start chat</button>
  </form>
  <div id="webchat" role="main" hidden></div>
</main>
<script id="chat-settings" type="application/json">${scriptJson(settings)}</script>
<script src="webchat.js"></script>
<script>
(function () {
  var settings = JSON.parse(document.getElementById('chat-settings').textContent);
  var params = new URLSearchParams(window.location.search);
  var locale = params.get('locale') || navigator.language || settings.defaultLocale;
  var form = document.getElementById('start');
  var input = document.getElementById('name');
  var status = document.getElementById('status');

  function fail(message) {
    status.textContent = message;
    status.hidden = false;
    form.hidden = false;
  }

  function start(name) {
    status.hidden = true;
    form.hidden = true;
    try { window.localStorage.setItem('fieldops.inspector', name); } catch (ignored) {}
    fetch('api/directline/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: name, locale: locale })
    })
      .then(function (response) {
        if (!response.ok) throw new Error('The chat service is not available (' + response.status + ').');
        return response.json();
      })
      .then(function (session) {
        document.getElementById('who').textContent = session.userName;
        var element = document.getElementById('webchat');
        element.hidden = false;
        window.WebChat.renderWebChat(
          {
            // The start body carries the locale, so the welcome (conversationUpdate) is in the user's language.
            directLine: window.WebChat.createDirectLine({
              token: session.token,
              domain: session.domain,
              conversationStartProperties: { locale: locale }
            }),
            userID: session.userId,
            username: session.userName,
            locale: locale,
            styleOptions: {
              botAvatarInitials: 'IB',
              userAvatarInitials: session.userName.slice(0, 2).toUpperCase(),
              // A chosen photo is sent at once (Web Chat 4.18 would otherwise stage it until Send).
              sendAttachmentOn: 'attach',
              uploadAccept: 'image/*'
            }
          },
          element
        );
      })
      .catch(function (error) { fail(error.message); });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (input.value.trim()) start(input.value.trim());
  });

  var named = params.get('name');
  if (named && named.trim()) {
    start(named.trim());
  } else {
    try { input.value = window.localStorage.getItem('fieldops.inspector') || ''; } catch (ignored) {}
    form.hidden = false;
    input.focus();
  }
})();
</script>
</body>
</html>
`;
}
