import { ActionTypes, type Attachment, CardFactory } from 'botbuilder';
import { type Device } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';

/**
 * Device hero cards (name, `Code …`, location and group, a **Start check** button sending `check <code>`) in the
 * turn's language: the one presenter behind `devices`, a search and `today`.
 */
export async function presentDeviceCards(
  turn: ConversationTurn,
  devices: readonly Device[],
): Promise<Attachment[]> {
  const [notSet, startCheck] = await turn.phrases([['notSet'], ['startCheck']]);
  const cards: Attachment[] = [];
  for (const device of devices) {
    const [subtitle, details] = await turn.phrases([
      ['deviceSubtitle', { code: device.code }],
      ['deviceDetails', { location: device.location || notSet, group: device.group || notSet }],
    ]);
    cards.push(
      CardFactory.heroCard(
        device.name,
        details ?? '',
        undefined,
        [{ type: ActionTypes.ImBack, title: startCheck ?? '', value: `check ${device.code}` }],
        { subtitle: subtitle ?? '' },
      ),
    );
  }
  return cards;
}
