/**
 * The chat page's behaviour (plain ES2017, served as `chat-page.js`): the session (`api/session`), sign-in and
 * sign-out, the Direct Line token (`api/directline/token`, signed-in sessions only) and Web Chat with its
 * connection states shown as words. The locale is `?locale=` or the browser's, as the bot's language is.
 */
export const CHAT_PAGE_SCRIPT = `(function () {
  'use strict';
  var settings = JSON.parse(document.getElementById('chat-settings').textContent);
  var text = settings.text;
  var params = new URLSearchParams(window.location.search);
  var locale = params.get('locale') || navigator.language || (settings.language === 'zh-CN' ? 'zh-CN' : 'en-US');
  var $ = function (id) { return document.getElementById(id); };
  var status = $('status');
  var signInSection = $('sign-in');
  var form = $('sign-in-form');
  var errorBox = $('sign-in-error');
  var button = $('sign-in-button');
  var chat = $('chat');
  var directLine;
  var lastRenewal = 0;

  function fill(template, values) {
    return template.replace(/\\{(\\w+)\\}/g, function (whole, name) { return name in values ? values[name] : whole; });
  }
  function show(message, isError) {
    status.textContent = message || '';
    status.classList.toggle('error', !!isError);
  }
  function api(method, path, body) {
    return fetch(path, {
      method: method,
      credentials: 'same-origin',
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined
    });
  }
  function showAccount(user) {
    $('who').textContent = user ? fill(text.signedInAs, { name: user.username }) : '';
    $('sign-out').hidden = !user;
  }

  function showSignIn(message) {
    stopChat();
    showAccount(undefined);
    show(message || '', false);
    signInSection.hidden = false;
    button.disabled = false;
    button.textContent = text.signIn;
    $('password').value = '';
    ($('username').value ? $('password') : $('username')).focus();
  }

  function stopChat() {
    if (directLine) { try { directLine.end(); } catch (ignored) {} directLine = undefined; }
    chat.hidden = true;
    chat.replaceChildren();
  }

  function connectionState(action) {
    if (action.type === 'DIRECT_LINE/CONNECT_PENDING') show(text.connecting);
    else if (action.type === 'DIRECT_LINE/CONNECT_REJECTED') show(text.connectionError, true);
    else if (action.type === 'DIRECT_LINE/INCOMING_ACTIVITY') { if (status.textContent === text.empty) show(''); }
    else if (action.type === 'DIRECT_LINE/UPDATE_CONNECTION_STATUS') {
      var state = action.payload.connectionStatus;
      if (state === 1) show(text.reconnecting);
      else if (state === 2) show(chat.dataset.greeted ? '' : text.empty);
      else if (state === 3) show(text.reconnecting);
      else if (state === 4) show(text.connectionError, true);
    }
    if (action.type === 'DIRECT_LINE/INCOMING_ACTIVITY' && action.payload.activity.from.role === 'bot') {
      chat.dataset.greeted = 'yes';
      if (status.textContent === text.empty) show('');
    }
  }

  function startChat(user) {
    signInSection.hidden = true;
    showAccount(user);
    show(text.connecting);
    return api('POST', 'api/directline/token', { locale: locale }).then(function (response) {
      if (response.status === 401) return showSignIn(text.sessionEnded);
      if (!response.ok) throw new Error(text.unavailable);
      return response.json().then(function (session) {
        directLine = window.WebChat.createDirectLine({
          token: session.token,
          domain: session.domain,
          // The start body carries the locale, so the welcome is in the user's language.
          conversationStartProperties: { locale: locale }
        });
        var store = window.WebChat.createStore({}, function () {
          return function (next) {
            return function (action) { connectionState(action); return next(action); };
          };
        });
        chat.hidden = false;
        delete chat.dataset.greeted;
        window.WebChat.renderWebChat({
          directLine: directLine,
          store: store,
          // The user's own photo (echoed by the relay without a thumbnail) is drawn as a picture, not a file chip.
          attachmentMiddleware: function () {
            return function (next) {
              return function (card) {
                var attachment = card.attachment;
                if (card.activity.from.role === 'user' && (attachment.contentType || '').indexOf('image/') === 0 && attachment.contentUrl && !attachment.thumbnailUrl) {
                  return next(Object.assign({}, card, { attachment: Object.assign({}, attachment, { thumbnailUrl: attachment.contentUrl }) }));
                }
                return next(card);
              };
            };
          },
          userID: session.userId,
          username: session.userName,
          locale: locale,
          styleOptions: {
            accent: '#175a96',
            primaryFont: 'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif',
            botAvatarInitials: 'IB',
            userAvatarInitials: session.userName.slice(0, 2).toUpperCase(),
            bubbleBorderRadius: 10,
            bubbleFromUserBorderRadius: 10,
            bubbleFromUserBackground: '#eaf3fb',
            bubbleMinWidth: 220,
            bubbleMaxWidth: 560,
            bubbleImageHeight: 200,
            // One tidy row: the paperclip, a wrapping text box and the send button at the same height.
            sendBoxHeight: 52,
            sendBoxMaxHeight: 120,
            sendBoxTextWrap: true,
            sendBoxButtonAlignment: 'stretch',
            sendBoxBorderTop: '1px solid #dde2e8',
            suggestedActionLayout: 'flow',
            // Photos only; a chosen photo is sent at once (Web Chat 4.18 would otherwise stage it until Send).
            // accept="image/*" makes phones offer the camera next to the gallery.
            uploadAccept: 'image/*',
            uploadMultiple: false,
            sendAttachmentOn: 'attach'
          }
        }, chat);
        var box = chat.querySelector('textarea, input[type="text"]');
        if (box && window.matchMedia('(min-width: 700px)').matches) box.focus();
      });
    });
  }

  function renew() {
    // The session (and its inspection-api tokens) is renewed while the user is active: at most once a minute.
    if (chat.hidden || Date.now() - lastRenewal < 60000) return;
    lastRenewal = Date.now();
    api('GET', 'api/session').then(function (response) {
      if (!response.ok) return;
      return response.json().then(function (body) { if (!body.user) showSignIn(text.sessionEnded); });
    }).catch(function () {});
  }
  ['keydown', 'pointerdown'].forEach(function (name) { document.addEventListener(name, renew, { passive: true }); });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var username = $('username').value.trim();
    var password = $('password').value;
    if (!username || !password) { (username ? $('password') : $('username')).focus(); return; }
    errorBox.hidden = true;
    button.disabled = true;
    button.textContent = text.signingIn;
    api('POST', 'api/session', { username: username, password: password }).then(function (response) {
      if (response.ok) return response.json().then(function (body) { lastRenewal = Date.now(); return startChat(body.user); });
      var message = text.unavailable;
      if (response.status === 401) message = text.wrongPassword;
      else if (response.status === 429) {
        var seconds = Number(response.headers.get('retry-after')) || 60;
        message = fill(text.throttled, { minutes: String(Math.max(1, Math.ceil(seconds / 60))) });
      }
      errorBox.textContent = message;
      errorBox.hidden = false;
      button.disabled = false;
      button.textContent = text.signIn;
      $('password').value = '';
      $('password').focus();
    }).catch(function () {
      errorBox.textContent = text.unavailable;
      errorBox.hidden = false;
      button.disabled = false;
      button.textContent = text.signIn;
    });
  });

  $('sign-out').addEventListener('click', function () {
    api('DELETE', 'api/session').finally(function () { showSignIn(text.signedOut); });
  });

  // A returning user with a live session goes straight to the chat.
  api('GET', 'api/session').then(function (response) {
    if (!response.ok) throw new Error(text.unavailable);
    return response.json().then(function (body) {
      if (!body.user) return showSignIn('');
      lastRenewal = Date.now();
      return startChat(body.user);
    });
  }).catch(function (error) { show(error.message || text.unavailable, true); signInSection.hidden = false; });
})();
`;
