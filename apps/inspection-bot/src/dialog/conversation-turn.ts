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

  /** The signed-in account behind the verified `from.id` (`dl_<user id>`), or undefined (unknown or inactive). */
  inspector(): Promise<Inspector | undefined> {
    return this.directory.inspectorOf(this.context.activity.from?.id);
  }
}
