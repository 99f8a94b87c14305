import {
  ActionTypes,
  ActivityHandler,
  type ConversationState,
  MessageFactory,
  type TurnContext,
} from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal, InspectionApiUnavailable } from '../inspection-api/inspection-api.errors';
import { CHECK_STATUSES, type InspectionApi } from '../inspection-api/inspection-api.types';
import { type BotLanguage, languageOfLocale, type Localizer } from '../phrases/localizer';
import { PHRASES } from '../phrases/phrase-catalogue';
import {
  closeActionWithPhoto,
  commentOnAction,
  openAction,
  showMyActions,
  startClosingAction,
} from './commands/actions.command';
import { showDevice } from './commands/check.command';
import { showDevices } from './commands/devices.command';
import { showHistory } from './commands/history.command';
import { showNotifications } from './commands/notifications.command';
import { attachChosenPhoto, attachPhoto, choosePhotoTarget } from './commands/photo.command';
import { answerOutOfRange, recordAnswer } from './commands/record.command';
import { showDueChecks } from './commands/today.command';
import { ConversationTurn, type DialogSettings } from './conversation-turn';
import { DialogState } from './dialog-state';
import { InspectorDirectory } from './inspector-directory';
import { parseUserCommand } from './user-command';

export interface InspectionBotOptions {
  api: InspectionApi;
  localizer: Localizer;
  conversationState: ConversationState;
  logger: Logger;
  defaultLanguage?: BotLanguage;
  /** Devices shown in one carousel. */
  carouselSize?: number;
  /** Records shown by "history". */
  historySize?: number;
  maxPhotoBytes?: number;
  /** The locale the chat page asked for, when the activity has none (the welcome). */
  pageLocaleOf?: (conversationId: string) => string | undefined;
  /** The clock of "today" (tests). */
  now?: () => Date;
  /** Update an item card once answered (updateActivity; INSPECTION_BOT_UPDATE_ANSWERED_CARDS). */
  updateAnsweredCards?: boolean;
  /**
   * The signed-in person's own access token (the chat page's session): records are then made with it, so
   * inspection-api sets `checked_by` itself; `ended` refuses (their session ended here); `unknown` (no session in
   * this process yet) and unset (dialog tests): the service account writes, naming the inspector.
   */
  inspectorTokenOf?: (userId: number) => Promise<{ accessToken: string } | 'ended' | 'unknown'>;
}

/**
 * The inspection conversation: a welcome on join; then each message is read as one command (`commands/`, one file
 * each) and answered in the user's language. The inspector is the account behind the verified `from.id`.
 */
export class InspectionBot extends ActivityHandler {
  private readonly state: DialogState;
  private readonly directory: InspectorDirectory;
  private readonly settings: DialogSettings;
  private readonly defaultLanguage: BotLanguage;

  constructor(private readonly options: InspectionBotOptions) {
    super();
    this.defaultLanguage = options.defaultLanguage ?? 'en';
    this.settings = {
      carouselSize: options.carouselSize ?? 10,
      historySize: options.historySize ?? 5,
      maxPhotoBytes: options.maxPhotoBytes ?? 10 * 1024 * 1024,
      updateAnsweredCards: options.updateAnsweredCards ?? true,
      now: options.now ?? (() => new Date()),
    };
    this.directory = new InspectorDirectory(options.api);
    this.state = new DialogState(options.conversationState);

    this.onMembersAdded(async (context, next) => {
      for (const member of context.activity.membersAdded ?? []) {
        if (member.id === context.activity.recipient.id) continue;
        const turn = this.turn(context);
        await this.guarded(turn, async () => {
          const inspector = await this.directory.inspectorOf(member.id);
          if (inspector) await this.welcome(turn, inspector.username);
          else await turn.reply('unknownInspector');
        });
      }
      await next();
    });

    this.onMessage(async (context, next) => {
      await this.answer(this.turn(context));
      await next();
    });

    // The chat page opened from a QR label (`/?device=CODE`, `/d/CODE`): that device's check, due items first.
    this.onEvent(async (context, next) => {
      if (context.activity.name === 'openDevice') {
        const turn = this.turn(context);
        const value = context.activity.value as { code?: unknown } | undefined;
        const code = typeof value?.code === 'string' ? value.code.trim().slice(0, 100) : '';
        await this.guarded(turn, async () => {
          if (!(await turn.inspector())) return turn.reply('unknownInspector');
          if (!code) return turn.reply('qrUnknown', { code });
          return showDevice(turn, code, this.state, { source: 'qr' });
        });
      }
      await next();
    });
  }

  /** The welcome by name, with Today, Devices and Help as suggested actions. */
  private async welcome(turn: ConversationTurn, name: string): Promise<void> {
    const [text, today, devices, help] = await turn.phrases([
      ['welcome', { name }],
      ['todayButton'],
      ['devicesButton'],
      ['helpButton'],
    ]);
    const message = MessageFactory.suggestedActions(
      [
        { type: ActionTypes.ImBack, title: today ?? 'Today', value: 'today' },
        { type: ActionTypes.ImBack, title: devices ?? 'Devices', value: 'devices' },
        { type: ActionTypes.ImBack, title: help ?? 'Help', value: 'help' },
      ],
      text,
    );
    await turn.context.sendActivity(message);
  }

  /** Runs the turn, then saves the conversation state. */
  override async run(context: TurnContext): Promise<void> {
    await super.run(context);
    await this.options.conversationState.saveChanges(context, false);
  }

  private turn(context: TurnContext): ConversationTurn {
    const locale =
      context.activity.locale ?? this.options.pageLocaleOf?.(context.activity.conversation.id) ?? undefined;
    return new ConversationTurn(
      context,
      languageOfLocale(locale, this.defaultLanguage),
      this.options.api,
      this.options.localizer,
      this.settings,
      this.directory,
      this.options.inspectorTokenOf,
    );
  }

  /** The typed status words: the catalogue's ok / warn / fail in English and in the turn's language. */
  private async statusWords(turn: ConversationTurn): Promise<Set<string>> {
    const words: string[] = CHECK_STATUSES.map((status) => PHRASES[status]);
    if (turn.language !== 'en') words.push(...(await turn.phrases(CHECK_STATUSES.map((status) => [status]))));
    return new Set(words.map((word) => word.toLowerCase()));
  }

  private async answer(turn: ConversationTurn): Promise<void> {
    const command = parseUserCommand(turn.context.activity, await this.statusWords(turn));
    await this.guarded(turn, async () => {
      switch (command.kind) {
        case 'nothing':
          return;
        case 'devices':
          return showDevices(turn);
        case 'search':
          return showDevices(turn, command.term);
        case 'check':
          return showDevice(turn, command.code, this.state);
        case 'record':
          return recordAnswer(turn, command.answer, this.state, this.options.logger);
        case 'photo':
          // After "close with photo" on an action, the next photo (not one taken for a record) closes it.
          if (command.recordId === undefined && (await this.state.actionCloseOut.get(turn.context)))
            return closeActionWithPhoto(turn, command.attachment, this.state, this.options.logger);
          return attachPhoto(turn, command.attachment, command.recordId, this.state, this.options.logger);
        case 'photoTarget':
          await this.state.actionCloseOut.delete(turn.context);
          return choosePhotoTarget(turn, command.recordId, this.state);
        case 'photoChoice':
          return attachChosenPhoto(turn, command.recordId, this.state, this.options.logger);
        case 'actions':
          return showMyActions(turn);
        case 'action':
          return openAction(turn, command.actionId);
        case 'actionComment':
          return commentOnAction(turn, command.actionId, command.text);
        case 'actionClose':
          return startClosingAction(turn, command.actionId, command.note, this.state);
        case 'outOfRange':
          return answerOutOfRange(turn, command.recordId, command.choice);
        case 'help':
          return turn.reply('help');
        case 'today':
          return showDueChecks(turn);
        case 'statusWithoutCard':
          return turn.reply('statusWithoutCard');
        case 'history':
          return showHistory(turn, command.code);
        case 'notifications':
          return showNotifications(turn, command.change);
        case 'notificationsHint':
          return turn.reply('notificationsHint');
      }
    });
  }

  /** inspection-api's refusals and outages become sentences; anything else fails the turn. */
  private async guarded(turn: ConversationTurn, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof InspectionApiRefusal) {
        await turn.reply('refused', { reasons: error.reasons.join(' ') });
      } else if (error instanceof InspectionApiUnavailable) {
        this.options.logger.warn({ reason: error.message }, 'inspection-api unavailable');
        await turn.reply('unavailable');
      } else {
        throw error;
      }
    }
  }
}
