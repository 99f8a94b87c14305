import ReactWebChat, { createStore } from 'botframework-webchat';
import { createElement, Fragment, type ReactElement, type ReactNode, useSyncExternalStore } from 'react';
// Web Chat 4.18 renders as its own renderWebChat() does, in a legacy root: under createRoot's batching its upload
// button submits before the chosen file reaches the send box, and a photo is never sent.
import { render, unmountComponentAtNode } from 'react-dom';
import { type OutboxView } from './outbox-view';
import { type Activity, type PageDirectLine } from './page-direct-line';
import { fill, type PageText } from './page-settings';
import { type UnseenActivities } from './unseen';
import { ignoreRepeatTapsOnCards } from './repeat-tap';

/** The part of a Web Chat Redux action the page reads or makes. */
export interface WebChatAction {
  type: string;
  payload?: {
    activity?: Activity;
    connectionStatus?: number;
    [key: string]: unknown;
  };
  meta?: unknown;
}

type Next<T> = (value: T) => unknown;

interface AttachmentCard {
  activity: { from: { role?: string } };
  attachment: { contentType?: string; contentUrl?: string; thumbnailUrl?: string };
}

export interface ChatViewOptions {
  text: PageText;
  outbox: OutboxView;
  /** The bot's cards that arrived since the person last saw the conversation ("N new" above the first). */
  unseen: UnseenActivities;
  locale: string;
  userId: string;
  userName: string;
  onAction(action: WebChatAction, dispatch: (action: WebChatAction) => void): boolean | void;
  retry(clientActivityID: string): void;
  discard(clientActivityID: string): void;
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
    // The outbox shows the chosen picture itself (from the bytes it keeps); Web Chat's own thumbnail would decode
    // a 12–50 MP photo a second time and logs an error for a file that is not a picture.
    enableUploadThumbnail: false,
  };
}

/** A card answer (Action.Submit `{action: "record", status, label, value, note}`) as the page shows it. */
interface CardAnswer {
  action: 'record';
  status: string;
  /** The status as the card's button said it, in the user's language. */
  label?: string;
  value?: string;
  note?: string;
}

function cardAnswerOf(activity: Activity): CardAnswer | undefined {
  const value = activity.value as Partial<CardAnswer> | undefined;
  return activity.from.role === 'user' && value?.action === 'record' && typeof value.status === 'string'
    ? (value as CardAnswer)
    : undefined;
}

/**
 * Web Chat mounted in the page's chat section with the page's own parts: statuses from the outbox on the user's
 * activities (waiting to send, not sent with the reason, Retry), card answers shown in the transcript (Web Chat
 * hides a card's submit), the second tap of a double tap kept off the cards (repeat-tap.ts), and unmounted again
 * on sign-out so a later sign-in renders a fresh, working chat.
 */
export class ChatView {
  private directLine: PageDirectLine | undefined;
  private mounted = false;

  constructor(private readonly container: HTMLElement) {
    ignoreRepeatTapsOnCards(container);
  }

  get running(): boolean {
    return this.mounted;
  }

  start(directLine: PageDirectLine, options: ChatViewOptions): void {
    this.stop();
    this.directLine = directLine;
    const { text, outbox, unseen } = options;

    /** "N new" above the first card that arrived since the person last saw the conversation. */
    function UnseenLine(props: { id: string | undefined }): ReactNode {
      const count = useSyncExternalStore(unseen.subscribe, () =>
        props.id !== undefined && unseen.firstId === props.id ? unseen.count : 0,
      );
      if (count === 0) return null;
      return createElement(
        'div',
        { className: 'unseen-line', id: 'unseen-line' },
        createElement('span', null, fill(text.unseenCount, { count: String(count) })),
      );
    }

    /** The outbox's word on one activity, or Web Chat's own status once it has gone. */
    function OutboxStatus(props: { clientActivityID: string | undefined; fallback: ReactNode }): ReactNode {
      const entry = useSyncExternalStore(outbox.subscribe, () => outbox.get(props.clientActivityID));
      if (!entry) return props.fallback;
      if (entry.state === 'pending') {
        return createElement('span', { className: 'outbox-status pending' }, text.waitingToSend);
      }
      const id = entry.clientActivityID;
      return createElement(
        'span',
        { className: 'outbox-status failed', role: 'alert' },
        entry.reason ?? text.notSent,
        ' ',
        entry.retryable === false
          ? createElement('button', { type: 'button', onClick: () => options.discard(id) }, text.remove)
          : createElement('button', { type: 'button', onClick: () => options.retry(id) }, text.retry),
      );
    }

    const activityStatusMiddleware =
      () => (next: (options: { activity: Activity }) => ReactElement) => (args: { activity: Activity }) =>
        args.activity.from.role === 'user'
          ? createElement(OutboxStatus, {
              clientActivityID: args.activity.channelData?.clientActivityID,
              fallback: next(args),
            })
          : next(args);

    /** A card answer as a small bubble of its own: "ok · 2.7 bar · steady", with its status. */
    const activityMiddleware =
      () => (next: (options: { activity: Activity }) => unknown) => (setup: { activity: Activity }) => {
        const answer = cardAnswerOf(setup.activity);
        if (!answer) {
          const render = next(setup) as ((...args: unknown[]) => ReactNode) | false | undefined;
          if (!render) return render;
          return (...args: unknown[]) =>
            createElement(
              Fragment,
              null,
              createElement(UnseenLine, { id: setup.activity.id }),
              render(...args),
            );
        }
        const status =
          typeof answer.label === 'string' && answer.label.trim() !== '' ? answer.label : answer.status;
        const words = [status, answer.value, answer.note].filter((word) => word && word.trim() !== '');
        return () =>
          createElement(
            'div',
            { className: `card-answer card-answer-${answer.status}` },
            createElement(
              'span',
              { className: 'card-answer-text' },
              `${text.answered}${text.answered.endsWith('：') ? '' : ' '}${words.join(' · ')}`,
            ),
            createElement(
              'span',
              { className: 'card-answer-status' },
              createElement(OutboxStatus, {
                clientActivityID: setup.activity.channelData?.clientActivityID,
                fallback: text.sent,
              }),
            ),
          );
      };

    const store = createStore(
      {},
      ({ dispatch }: { dispatch: (action: WebChatAction) => void }) =>
        (next: Next<WebChatAction>) =>
        (action: WebChatAction) =>
          options.onAction(action, dispatch) === false ? undefined : next(action),
    );
    this.container.hidden = false;
    this.mounted = true;
    render(
      createElement(ReactWebChat, {
        directLine: directLine,
        store,
        attachmentMiddleware: attachmentMiddleware as never,
        activityMiddleware: activityMiddleware as never,
        activityStatusMiddleware: activityStatusMiddleware as never,
        userID: options.userId,
        username: options.userName,
        locale: options.locale,
        styleOptions: styleOptions(options.userName),
      }),
      this.container,
    );
  }

  stop(): void {
    this.directLine?.end();
    this.directLine = undefined;
    if (this.mounted) unmountComponentAtNode(this.container);
    this.mounted = false;
    this.container.hidden = true;
    this.container.replaceChildren();
  }
}
