import { type ConversationState, type StatePropertyAccessor } from 'botbuilder';
import { type CheckStatus } from '../inspection-api/inspection-api.types';

/** The record a photo sent next is attached to (per conversation). */
export interface LastRecord {
  id: number;
  device: string;
  item: string;
}

/** An item of the open check that has its record. */
export interface AnsweredItem {
  recordId: number;
  status: CheckStatus;
  /** The record's `checked_at`. */
  checkedAt: string;
  inspector: string;
  photo: boolean;
  /** The `Idempotency-Key` of the tap that made it, when this conversation made it (a repeat of it is no new answer). */
  key?: string;
}

/**
 * The check shown last in this conversation (`check <code>`, a scanned label): its card message (updated as items
 * are answered), each item card's answer id, and what is answered so far. What is answered comes from inspection-api
 * (the period's records, `check-progress.ts`) each time the check is shown or answered; this is only its copy.
 */
export interface OpenCheck {
  /** The id of the message holding the item cards (for updateActivity). */
  activityId?: string;
  device: number;
  code: string;
  /** `qr` when opened from a scanned label: its records say so. */
  source?: 'qr';
  /** Item ids in the order shown (due items first when opened from a label). */
  order: number[];
  /** Item id → the answer id its card's buttons carry. */
  answerIds: Record<string, string>;
  /** Item id → its record. */
  answers: Record<string, AnsweredItem>;
  /** When this conversation opened the check (ISO): the round a device outside every plan is answered in. */
  openedAt?: string;
}

/** "Close with photo" on an action: the next photo closes it with this note. */
export interface ActionCloseOut {
  actionId: number;
  note: string;
}

/** A photo sent with the paperclip while the bot asks which of several records it is for. */
export interface PendingPhoto {
  attachment: { contentUrl: string; contentType: string; name: string };
  /** The `Idempotency-Key` of its upload (from the activity that brought it). */
  key?: string;
  /** The records offered. */
  candidates: number[];
}

/** The conversation's state the commands read and write (botbuilder ConversationState, keyed by conversation). */
export class DialogState {
  readonly lastRecord: StatePropertyAccessor<LastRecord | undefined>;
  readonly openCheck: StatePropertyAccessor<OpenCheck | undefined>;
  /** The record an "add photo" plain submit chose for the next photo. */
  readonly photoTarget: StatePropertyAccessor<number | undefined>;
  /** A photo kept until the inspector says which record it is for. */
  readonly pendingPhoto: StatePropertyAccessor<PendingPhoto | undefined>;
  /** The action a "close with photo" submit chose for the next photo, with its note. */
  readonly actionCloseOut: StatePropertyAccessor<ActionCloseOut | undefined>;

  constructor(conversationState: ConversationState) {
    this.lastRecord = conversationState.createProperty<LastRecord | undefined>('lastRecord');
    this.openCheck = conversationState.createProperty<OpenCheck | undefined>('openCheck');
    this.photoTarget = conversationState.createProperty<number | undefined>('photoTarget');
    this.pendingPhoto = conversationState.createProperty<PendingPhoto | undefined>('pendingPhoto');
    this.actionCloseOut = conversationState.createProperty<ActionCloseOut | undefined>('actionCloseOut');
  }
}
