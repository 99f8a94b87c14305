import { ActivityTypes, MessageFactory, type TurnContext } from 'botbuilder';
import { type InspectionApi } from '../inspection-api/inspection-api.types';
import { type BotLanguage, type Localizer } from '../phrases/localizer';
import { type PhraseKey, type PhraseParameters } from '../phrases/phrase-catalogue';
import { type Inspector, type InspectorDirectory } from './inspector-directory';

/** Settings every command may read. */
export interface DialogSettings {
  /** Devices shown in one carousel. */
  carouselSize: number;
  /** Records shown by "history". */
  historySize: number;
  maxPhotoBytes: number;
  /** Update an item card once answered (updateActivity). */
  updateAnsweredCards: boolean;
  /** The clock of "today". */
  now: () => Date;
}

/** One turn as the commands see it: the activity, its language, the API, phrases, replies and the inspector. */
export class ConversationTurn {
  constructor(
    readonly context: TurnContext,
    readonly language: BotLanguage,
    readonly api: InspectionApi,
    readonly localizer: Localizer,
    readonly settings: DialogSettings,
    private readonly directory: InspectorDirectory,
    private readonly inspectorTokenOf?: (
      userId: number,
    ) => Promise<{ accessToken: string } | 'ended' | 'unknown'>,
  ) {}

  phrase(key: PhraseKey, parameters?: PhraseParameters): Promise<string> {
    return this.localizer.phrase(this.language, key, parameters);
  }

  phrases(requests: ReadonlyArray<readonly [PhraseKey, PhraseParameters?]>): Promise<string[]> {
    return this.localizer.phrases(this.language, requests);
  }

  async reply(key: PhraseKey, parameters?: PhraseParameters): Promise<void> {
    await this.context.sendActivity(MessageFactory.text(await this.phrase(key, parameters)));
  }

  async typing(): Promise<void> {
    await this.context.sendActivity({ type: ActivityTypes.Typing });
  }

  /**
   * How a record of this inspector is written: with their own access token when this process holds their chat
   * page's session; `signed-out` when their session ended here (signed out, renewal refused); else (no session here
   * yet: the bot restarted, or another instance serves their page) by the service account naming the inspector the
   * Direct Line identity verified, as without the chat page's sessions, so a tap is never lost to a restart.
   */
  async recordWriter(inspector: Inspector): Promise<{ accessToken?: string } | 'signed-out'> {
    if (!this.inspectorTokenOf) return {};
    const writer = await this.inspectorTokenOf(inspector.id);
    if (writer === 'ended') return 'signed-out';
    return writer === 'unknown' ? {} : writer;
  }

  /** The signed-in account behind the verified `from.id` (`dl_<user id>`), or undefined (unknown or inactive). */
  inspector(): Promise<Inspector | undefined> {
    return this.directory.inspectorOf(this.context.activity.from?.id);
  }
}
