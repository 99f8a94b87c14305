import { ActionTypes, type Attachment, CardFactory, MessageFactory } from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { type ActionComment, type CorrectiveAction } from '../../inspection-api/inspection-api.types';
import { type PhraseKey } from '../../phrases/phrase-catalogue';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState } from '../dialog-state';
import { downloadAttachment, PhotoDownloadError } from '../photo-download';
import { cardsMessage } from '../presenters/card-layout';

/** Comments shown on an action's card (the latest). */
const SHOWN_COMMENTS = 5;
/** Actions shown by "my actions" (cards). */
const SHOWN_ACTIONS = 10;
/** Longest comment or close-out note taken from a card (the API allows 5,000 characters for a comment). */
const MAX_TEXT = 2000;

const STATUS_PHRASES: Record<CorrectiveAction['status'], PhraseKey> = {
  open: 'actionStatusOpen',
  in_progress: 'actionStatusInProgress',
  done: 'actionStatusDone',
  verified: 'actionStatusVerified',
  cancelled: 'actionStatusCancelled',
};

const unfinished = (action: CorrectiveAction): boolean =>
  action.status === 'open' || action.status === 'in_progress';

/** The signed-in inspector's id, or undefined after saying there is none. */
async function inspectorId(turn: ConversationTurn): Promise<number | undefined> {
  const inspector = await turn.inspector();
  if (!inspector) await turn.reply('unknownInspector');
  return inspector?.id;
}

/** One line: status, the team it is assigned to, due date or overdue, device. */
async function actionFacts(turn: ConversationTurn, action: CorrectiveAction): Promise<string> {
  const parts = [await turn.phrase(STATUS_PHRASES[action.status])];
  if (action.assignee_team_name)
    parts.push(await turn.phrase('actionTeam', { team: action.assignee_team_name }));
  if (action.due_date)
    parts.push(await turn.phrase(action.overdue ? 'actionOverdue' : 'actionDue', { date: action.due_date }));
  if (action.device !== null) {
    const device = await turn.api.getDevice(action.device).catch(() => undefined);
    if (device) parts.push(`${device.name} (${device.code})`);
  }
  return parts.join(' · ');
}

/** A card of "my actions": the title (overdue marked), its facts, and **Open**. */
async function actionSummaryCard(turn: ConversationTurn, action: CorrectiveAction): Promise<Attachment> {
  const [open, overdue] = await turn.phrases([['actionOpenButton'], ['actionOverdueMark']]);
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    body: [
      {
        type: 'TextBlock',
        text: action.overdue ? `⚠ ${overdue ?? ''}: ${action.title}` : action.title,
        weight: 'Bolder',
        wrap: true,
        ...(action.overdue ? { color: 'Attention' } : {}),
      },
      {
        type: 'TextBlock',
        text: await actionFacts(turn, action),
        wrap: true,
        isSubtle: true,
        spacing: 'Small',
      },
    ],
    actions: [
      { type: 'Action.Submit', title: open ?? 'Open', data: { command: 'open-action', actionId: action.id } },
    ],
  });
}

/**
 * `actions` (整改): the actions assigned to the signed-in inspector, as inspection-api lists them for that person
 * (open and in progress first, the overdue first among them, then those done and waiting for verification), one
 * card each with **Open**.
 */
export async function showMyActions(turn: ConversationTurn): Promise<void> {
  const me = await inspectorId(turn);
  if (me === undefined) return;
  await turn.typing();
  const { actions, more } = await turn.api.myActions(me);
  if (actions.length === 0) {
    await turn.reply('actionsNone');
    return;
  }
  const shown = actions.slice(0, SHOWN_ACTIONS);
  const overdue = actions.filter((action) => action.overdue).length;
  const lines = [await turn.phrase('actionsIntro', { count: actions.length, overdue })];
  if (more || shown.length < actions.length)
    lines.push(await turn.phrase('actionsMore', { shown: shown.length }));
  await turn.context.sendActivity(MessageFactory.text(lines.join('\n')));
  const cards: Attachment[] = [];
  for (const action of shown) cards.push(await actionSummaryCard(turn, action));
  await turn.context.sendActivity(cardsMessage(cards));
}

/** The action card: what, where, when, the description, the latest comments, and the inputs to comment or close. */
async function actionCard(
  turn: ConversationTurn,
  action: CorrectiveAction,
  comments: readonly ActionComment[],
): Promise<Attachment> {
  const [commentLabel, commentButton, noteLabel, closeButton, waiting, noComments] = await turn.phrases([
    ['actionCommentLabel'],
    ['actionCommentButton'],
    ['actionNoteLabel'],
    ['actionCloseButton'],
    ['actionWaitingVerification'],
    ['actionNoComments'],
  ]);
  const latest = comments.slice(-SHOWN_COMMENTS);
  const body: object[] = [
    { type: 'TextBlock', text: action.title, weight: 'Bolder', size: 'Medium', wrap: true },
    {
      type: 'TextBlock',
      text: await actionFacts(turn, action),
      wrap: true,
      spacing: 'Small',
      ...(action.overdue ? { color: 'Attention' } : {}),
    },
  ];
  if (action.description) body.push({ type: 'TextBlock', text: action.description, wrap: true });
  body.push({
    type: 'TextBlock',
    text: latest.length
      ? latest.map((comment) => `${comment.author}: ${comment.text}`).join('\n\n')
      : (noComments ?? ''),
    wrap: true,
    isSubtle: true,
    separator: true,
  });
  if (action.status === 'done') body.push({ type: 'TextBlock', text: waiting ?? '', wrap: true });
  body.push({
    type: 'Input.Text',
    id: 'comment',
    label: commentLabel,
    placeholder: commentLabel,
    isMultiline: true,
    maxLength: MAX_TEXT,
  });
  const actions: object[] = [
    { type: 'Action.Submit', title: commentButton, data: { command: 'comment-action', actionId: action.id } },
  ];
  if (unfinished(action)) {
    body.push({
      type: 'Input.Text',
      id: 'note',
      label: noteLabel,
      placeholder: noteLabel,
      isMultiline: true,
      maxLength: MAX_TEXT,
    });
    actions.push({
      type: 'Action.Submit',
      title: closeButton,
      data: { command: 'close-action', actionId: action.id },
    });
  }
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    body,
    actions,
  });
}

/**
 * Whether the action is the person's, as inspection-api's rule says (`action-assignment.ts`: assigned to them, or to
 * a team they are a member of now; "my actions" lists by that rule itself, `?assigned_to=`).
 */
async function isMine(turn: ConversationTurn, action: CorrectiveAction, me: number): Promise<boolean> {
  if (action.assignee === me) return true;
  if (action.assignee_team === null) return false;
  const team = await turn.api.getTeam(action.assignee_team, me).catch(() => undefined);
  return team?.members.includes(me) === true;
}

/**
 * The action `id` as the inspector may see it (theirs or their team's), or undefined after saying why not: gone
 * (404), or not assigned to them (then the API would refuse their writes too).
 */
async function myAction(
  turn: ConversationTurn,
  id: number,
  me: number,
): Promise<CorrectiveAction | undefined> {
  let action: CorrectiveAction;
  try {
    action = await turn.api.getAction(id, me);
  } catch (error) {
    if (error instanceof InspectionApiRefusal && error.status === 404) {
      await turn.reply('actionGone');
      return undefined;
    }
    throw error;
  }
  if (!(await isMine(turn, action, me))) {
    await turn.reply('actionNotYours');
    return undefined;
  }
  return action;
}

/** **Open** on an action: its card. */
export async function openAction(turn: ConversationTurn, id: number): Promise<void> {
  const me = await inspectorId(turn);
  if (me === undefined) return;
  await turn.typing();
  const action = await myAction(turn, id, me);
  if (!action) return;
  const comments = await turn.api.actionComments(id, me);
  await turn.context.sendActivity(MessageFactory.attachment(await actionCard(turn, action, comments)));
}

/** **Comment** on an action card: the comment under the inspector's name. */
export async function commentOnAction(turn: ConversationTurn, id: number, text: string): Promise<void> {
  const me = await inspectorId(turn);
  if (me === undefined) return;
  const comment = text.trim().slice(0, MAX_TEXT);
  if (!comment) {
    await turn.reply('actionCommentEmpty');
    return;
  }
  const action = await myAction(turn, id, me);
  if (!action) return;
  await turn.api.commentOnAction(id, comment, me);
  await turn.reply('actionCommented', { title: action.title });
}

/**
 * **Close with photo** on an action card: the note is kept and the next photo closes the action (done, with the
 * note and the photo), as "add photo" does for a record.
 */
export async function startClosingAction(
  turn: ConversationTurn,
  id: number,
  note: string,
  state: DialogState,
): Promise<void> {
  const me = await inspectorId(turn);
  if (me === undefined) return;
  const closeOut = note.trim().slice(0, MAX_TEXT);
  if (!closeOut) {
    await turn.reply('actionNoteMissing');
    return;
  }
  const action = await myAction(turn, id, me);
  if (!action) return;
  if (!unfinished(action)) {
    await turn.reply('actionNotOpen', {
      title: action.title,
      status: await turn.phrase(STATUS_PHRASES[action.status]),
    });
    return;
  }
  await state.photoTarget.delete(turn.context);
  await state.actionCloseOut.set(turn.context, { actionId: id, note: closeOut });
  await turn.reply('actionPhotoNow', { title: action.title });
}

/** The photo after **Close with photo**: the action moves to done with the note and the photo. */
export async function closeActionWithPhoto(
  turn: ConversationTurn,
  attachment: { contentUrl: string; contentType: string; name: string },
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const closing = await state.actionCloseOut.get(turn.context);
  if (!closing) return;
  const me = await inspectorId(turn);
  if (me === undefined) return;
  if (!attachment.contentType.startsWith('image/')) {
    await turn.reply('photoNotImage');
    return;
  }
  await turn.typing();
  let photo;
  try {
    photo = await downloadAttachment(attachment, turn.settings.maxPhotoBytes);
  } catch (error) {
    if (!(error instanceof PhotoDownloadError)) throw error;
    logger.warn({ reason: error.message }, 'photo download failed');
    await turn.reply('photoDownloadFailed');
    return;
  }
  const action = await turn.api.closeAction(closing.actionId, { note: closing.note, photo }, me);
  await state.actionCloseOut.delete(turn.context);
  const text = await turn.phrase('actionClosed', { title: action.title });
  const reply = MessageFactory.text(text);
  if (action.close_out_photo)
    reply.attachments = [{ contentType: photo.contentType, contentUrl: action.close_out_photo, name: text }];
  await turn.context.sendActivity(reply);
}

/**
 * Under `today`: how many actions the inspector has to work on, with a **My actions** button (nothing when none).
 */
export async function myActionsPrompt(turn: ConversationTurn): Promise<void> {
  const inspector = await turn.inspector();
  if (!inspector) return;
  const { actions } = await turn.api.myActions(inspector.id);
  const open = actions.filter(unfinished);
  if (open.length === 0) return;
  const overdue = open.filter((action) => action.overdue).length;
  const [text, button] = await turn.phrases([
    ['todayActions', { count: open.length, overdue }],
    ['actionsButton'],
  ]);
  const card = CardFactory.heroCard('', text ?? '', undefined, [
    {
      type: ActionTypes.ImBack,
      title: button ?? 'My actions',
      value: turn.language === 'en' ? 'actions' : '整改',
    },
  ]);
  await turn.context.sendActivity(MessageFactory.attachment(card));
}
