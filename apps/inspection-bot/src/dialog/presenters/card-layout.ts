import { type Activity, type Attachment, MessageFactory } from 'botbuilder';

/** Up to this many cards side by side (a carousel); more are a vertical list a thumb scrolls. */
export const MAX_CAROUSEL_CARDS = 4;

/**
 * A set of cards as one message without text: a carousel for a few, a vertical list for more. The text that goes
 * with them is sent as a message of its own before, so it is never squeezed beside the cards at phone widths.
 */
export function cardsMessage(cards: Attachment[]): Partial<Activity> {
  return cards.length > MAX_CAROUSEL_CARDS ? MessageFactory.list(cards) : MessageFactory.carousel(cards);
}
