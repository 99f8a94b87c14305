import ReactWebChat, { createDirectLine, createStore } from 'botframework-webchat';
import { createElement } from 'react';
// Web Chat 4.18 renders as its own renderWebChat() does, in a legacy root: under createRoot's batching its upload
// button submits before the chosen file reaches the send box, and a photo is never sent.
import { render, unmountComponentAtNode } from 'react-dom';
import { type DirectLineSession } from './page-api';

/** The part of a Web Chat Redux action the page reads. */
export interface WebChatAction {
  type: string;
  payload?: {
    activity?: { from?: { role?: string }; type?: string };
    connectionStatus?: number;
  };
}

type Next<T> = (value: T) => unknown;

interface AttachmentCard {
  activity: { from: { role?: string } };
  attachment: { contentType?: string; contentUrl?: string; thumbnailUrl?: string };
}

/**
 * The user's own photo (echoed by the relay without a thumbnail) is drawn as a picture, not a file chip.
 */
const attachmentMiddleware = () => (next: Next<AttachmentCard>) => (card: AttachmentCard) => {
  const { attachment } = card;
  if (
    card.activity.from.role === 'user' &&
    (attachment.contentType ?? '').startsWith('image/') &&
    attachment.contentUrl &&
    !attachment.thumbnailUrl
  ) {
    return next({ ...card, attachment: { ...attachment, thumbnailUrl: attachment.contentUrl } });
  }
  return next(card);
};

/** Web Chat's look on the page: the product's colours, phone-friendly sizes, photos only from the paperclip. */
function styleOptions(userName: string): Record<string, unknown> {
  return {
    accent: '#175a96',
    primaryFont: 'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif',
    botAvatarInitials: 'IB',
    userAvatarInitials: userName.slice(0, 2).toUpperCase(),
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
    sendAttachmentOn: 'attach',
  };
}

/**
 * Web Chat (the botframework-webchat package, React) mounted in the page's chat section, and unmounted again on
 * sign-out, so a later sign-in on the same page renders a fresh, working chat.
 */
export class ChatView {
  private mounted = false;
  private directLine: { end(): void } | undefined;

  constructor(private readonly container: HTMLElement) {}

  get running(): boolean {
    return this.mounted;
  }

  start(session: DirectLineSession, locale: string, onAction: (action: WebChatAction) => void): void {
    this.stop();
    const directLine = createDirectLine({
      token: session.token,
      domain: session.domain,
      // The start body carries the locale, so the welcome is in the user's language.
      conversationStartProperties: { locale },
    });
    this.directLine = directLine;
    const store = createStore({}, () => (next: Next<WebChatAction>) => (action: WebChatAction) => {
      onAction(action);
      return next(action);
    });
    this.container.hidden = false;
    this.mounted = true;
    render(
      createElement(ReactWebChat, {
        directLine,
        store,
        attachmentMiddleware: attachmentMiddleware as never,
        userID: session.userId,
        username: session.userName,
        locale,
        styleOptions: styleOptions(session.userName),
      }),
      this.container,
    );
  }

  stop(): void {
    try {
      this.directLine?.end();
    } catch {
      // Already ended.
    }
    this.directLine = undefined;
    if (this.mounted) unmountComponentAtNode(this.container);
    this.mounted = false;
    this.container.hidden = true;
    this.container.replaceChildren();
  }
}
