import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type Activity, ConversationState, MemoryStorage, TestAdapter } from 'botbuilder';
import { createLogger } from '@fieldops/platform';
import { InspectionBot, type InspectionApi, Localizer, PhrasebookTranslator } from '../../src';

export const PHRASEBOOK = join(__dirname, '..', '..', 'phrasebook.yaml');

/** The inspection dialog under botbuilder-testing's TestAdapter, with the real phrasebook. */
export class BotHarness {
  /** Who speaks by default: set to a real account's `dl_<id>` by the suites (the name is what a client typed). */
  static from: { id: string; name: string } = { id: 'dl_0', name: 'Typed Name' };
  readonly adapter: TestAdapter;

  constructor(api: InspectionApi, options: { now?: () => Date; pageLocaleOf?: (id: string) => string } = {}) {
    const bot = new InspectionBot({
      api,
      localizer: new Localizer(PhrasebookTranslator.fromFile(PHRASEBOOK)),
      conversationState: new ConversationState(new MemoryStorage()),
      logger: createLogger({ service: 'inspection-bot-test', level: 'silent' }),
      updateAnsweredCards: true,
      ...options,
    });
    this.adapter = new TestAdapter((context) => bot.run(context));
    // What the bot updated in the turn (TestAdapter itself only swaps activities still in its queue).
    this.adapter.updateActivity = (_context, activity) => {
      this.updated.push(activity);
      return Promise.resolve({ id: activity.id ?? '' });
    };
  }

  /** The activities the bot updated (updateActivity) in the last turn. */
  readonly updated: Array<Partial<Activity>> = [];

  /** One turn: the activity in, every reply out (typing indicators included). */
  async turn(activity: Partial<Activity>): Promise<Partial<Activity>[]> {
    this.adapter.activeQueue.splice(0);
    this.updated.splice(0);
    await this.adapter.processActivity({
      type: 'message',
      from: BotHarness.from,
      locale: 'en-US',
      // Unique as the relay's ids are (TestAdapter would number every harness's activities from 0).
      id: randomUUID(),
      ...activity,
    });
    return this.adapter.activeQueue.splice(0);
  }

  /** A text message; replies without the typing indicators. */
  async say(text: string, extra: Partial<Activity> = {}): Promise<Partial<Activity>[]> {
    return (await this.turn({ text, ...extra })).filter((reply) => reply.type !== 'typing');
  }
}

/** The texts of the replies. */
export function textsOf(replies: Partial<Activity>[]): string[] {
  return replies.map((reply) => reply.text ?? '');
}
