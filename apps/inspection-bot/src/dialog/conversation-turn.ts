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
    private readonly inspectorTokenOf?: (userId: number) => Promise<string | undefined>,
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
   * How a record of this inspector is written: with their own access token when the bot has the chat page's
   * sessions (`signed-out` when this process holds no live session of theirs), else by the service account.
   */
  async recordWriter(inspector: Inspector): Promise<{ accessToken?: string } | 'signed-out'> {
    if (!this.inspectorTokenOf) return {};
    const accessToken = await this.inspectorTokenOf(inspector.id);
    return accessToken === undefined ? 'signed-out' : { accessToken };
  }

  /** The signed-in account behind the verified `from.id` (`dl_<user id>`), or undefined (unknown or inactive). */
  inspector(): Promise<Inspector | undefined> {
    return this.directory.inspectorOf(this.context.activity.from?.id);
  }
}
