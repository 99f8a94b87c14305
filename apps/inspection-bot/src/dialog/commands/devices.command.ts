import { MessageFactory } from 'botbuilder';
import { type ConversationTurn } from '../conversation-turn';
import { cardsMessage } from '../presenters/card-layout';
import { presentDeviceCards } from '../presenters/device-card.presenter';

/** `devices` or a search word: how many there are, then the device cards of the first page (card-layout.ts). */
export async function showDevices(turn: ConversationTurn, search?: string): Promise<void> {
  await turn.typing();
  const page = await turn.api.listDevices({ search, pageSize: turn.settings.carouselSize });
  if (page.count === 0) {
    await turn.reply(search ? 'noMatch' : 'noDevices', { term: search ?? '' });
    return;
  }
  const [intro, more] = await turn.phrases([
    ['devicesIntro', { count: page.count }],
    ['devicesMore', { shown: page.results.length, count: page.count }],
  ]);
  const introduction = page.count > page.results.length ? `${intro} ${more}` : (intro ?? '');
  await turn.context.sendActivity(MessageFactory.text(introduction));
  await turn.context.sendActivity(cardsMessage(await presentDeviceCards(turn, page.results)));
}
