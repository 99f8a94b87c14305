import { type Attachment, CardFactory } from 'botbuilder';
import {
  CHECK_STATUSES,
  type CheckItem,
  type CheckStatus,
  type Device,
} from '../../inspection-api/inspection-api.types';

export interface ItemCardText {
  expected: string;
  valuePlaceholder: string;
  notePlaceholder: string;
  statuses: Record<CheckStatus, string>;
}

/** Adaptive Card action styles: ok is positive, warn the default, fail destructive (Web Chat draws them apart). */
export const STATUS_ACTION_STYLES: Record<CheckStatus, 'positive' | 'default' | 'destructive'> = {
  ok: 'positive',
  warn: 'default',
  fail: 'destructive',
};

/**
 * Adaptive Card text colours of a status, drawn as the status buttons are (`STATUS_ACTION_STYLES`): a failure in the
 * attention colour, a warning in the warning colour, ok in the good one.
 */
export const STATUS_TEXT_COLOURS: Record<CheckStatus, 'Good' | 'Warning' | 'Attention'> = {
  ok: 'Good',
  warn: 'Warning',
  fail: 'Attention',
};

/** What an item card's buttons carry besides the status. */
export interface ItemCardAnswer {
  /** One id per card, on every button (answer-identity.ts: a double tap makes one record). */
  answerId: string;
  /** `qr` when the check was opened from a scanned label. */
  source?: 'qr';
}

/**
 * An Adaptive Card of one check item: its expected value, inputs for the measured value and a note, and one
 * submit button per status. The submit carries `{action: "record", device, item, status, answer[, source]}` and the
 * inputs `value` and `note`.
 */
export function itemAdaptiveCard(
  device: Device,
  item: CheckItem,
  text: ItemCardText,
  answer?: ItemCardAnswer,
): Attachment {
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    body: [
      { type: 'TextBlock', text: item.name, weight: 'Bolder', size: 'Medium', wrap: true },
      ...(item.description ? [{ type: 'TextBlock', text: item.description, wrap: true }] : []),
      { type: 'TextBlock', text: text.expected, isSubtle: true, wrap: true },
      {
        type: 'Input.Text',
        id: 'value',
        label: text.valuePlaceholder,
        placeholder: text.valuePlaceholder,
        maxLength: 200,
      },
      {
        type: 'Input.Text',
        id: 'note',
        label: text.notePlaceholder,
        placeholder: text.notePlaceholder,
        isMultiline: true,
      },
    ],
    actions: CHECK_STATUSES.map((status) => ({
      type: 'Action.Submit',
      title: text.statuses[status],
      style: STATUS_ACTION_STYLES[status],
      data: {
        action: 'record',
        device: device.id,
        item: item.id,
        status,
        // The status in the user's language, for the chat page's echo of the answer ("Answered: 正常").
        label: text.statuses[status],
        ...(answer ? { answer: answer.answerId } : {}),
        ...(answer?.source ? { source: answer.source } : {}),
      },
    })),
  });
}

/**
 * An answered item: its name and answer ("ok · 10:02 · inspector"), no status buttons any more, and **Add photo**
 * (`Action.Submit` `{command: "attach-photo", recordId}`: the chat page opens the camera; sent as it is, the bot
 * takes the next photo for that record).
 */
export function answeredItemCard(
  item: CheckItem,
  answer: { line: string; recordId: number },
  addPhoto: string,
): Attachment {
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    body: [
      { type: 'TextBlock', text: item.name, weight: 'Bolder', size: 'Medium', wrap: true },
      {
        type: 'TextBlock',
        text: answer.line,
        weight: 'Bolder',
        wrap: true,
      },
    ],
    actions: [
      {
        type: 'Action.Submit',
        title: addPhoto,
        data: { command: 'attach-photo', recordId: answer.recordId },
      },
    ],
  });
}
