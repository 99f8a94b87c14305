/**
 * The second tap of a double tap never presses a card's button.
 *
 * A card's button submits on its first tap, and the transcript then moves (Web Chat scrolls to the end, the answer's
 * bubble is added below): the second tap of a double tap lands where the finger still is, which is now another
 * card's button. Left alone it answers an item the inspector never answered. The browser numbers the clicks of a
 * double tap or double click (`detail` 2, 3 …; a keyboard's Enter or Space is 0), so a click numbered past 1 on any
 * button of a card is stopped before the card sees it. The first tap stands; a second answer to the same card is
 * also refused by the outbox (`PageDirectLine.takesAnswer`).
 */
export function isRepeatTapOnCard(event: Pick<MouseEvent, 'detail' | 'target'>): boolean {
  if (event.detail < 2) return false;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  return typeof target?.closest === 'function' && target.closest('.ac-adaptiveCard button') !== null;
}

/** Stops repeated taps on cards in `container` (capture phase: before the card's own handler). */
export function ignoreRepeatTapsOnCards(container: HTMLElement): void {
  container.addEventListener(
    'click',
    (event) => {
      if (!isRepeatTapOnCard(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    { capture: true },
  );
}
