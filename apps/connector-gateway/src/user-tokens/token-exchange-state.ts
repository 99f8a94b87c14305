import { badArgument } from '@fieldops/contracts';

/** The part of a ConversationReference the sign-in is bound to. */
export interface SignInConversation {
  channelId: string;
  serviceUrl?: string;
  conversationId: string;
  userId: string;
  botId?: string;
  activityId?: string;
}

/** What a bot sends as `state` to GetSignInResource / GetTokenOrSignInResource, decoded. */
export interface TokenExchangeState {
  connectionName: string;
  conversation: SignInConversation;
  /** The bot's app id as the SDK knows it ('' from the Agents SDK); must be the caller's when given. */
  msAppId: string;
}

const MAX_STATE_LENGTH = 16_384;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * Decodes the SDKs' `state`: base64 of the JSON `TokenExchangeState` `{connectionName, conversation, relatesTo,
 * msAppId}` (botbuilder's `UserTokenClient.createTokenExchangeState`, the Agents SDK's `getSignInResource`). Both
 * SDKs write the ConversationReference's own names (`conversation.id`, `user.id`, `channelId`); the Agents SDK may
 * also write `activityId`/`bot`. A state naming no conversation or user is refused: the sign-in is bound to them.
 */
export function parseTokenExchangeState(state: string | undefined): TokenExchangeState {
  if (state === undefined || state === '') throw badArgument('state is required');
  if (state.length > MAX_STATE_LENGTH) throw badArgument('state is too long');
  let decoded: Record<string, unknown>;
  try {
    decoded = record(JSON.parse(Buffer.from(state, 'base64').toString('utf8')));
  } catch {
    throw badArgument('state is not base64 of a JSON TokenExchangeState');
  }
  const reference = record(decoded.conversation);
  const connectionName = text(decoded.connectionName);
  const channelId = text(reference.channelId);
  const conversationId = text(record(reference.conversation).id);
  const userId = text(record(reference.user).id);
  if (connectionName === undefined) throw badArgument('state names no connectionName');
  if (channelId === undefined || conversationId === undefined || userId === undefined)
    throw badArgument('state names no conversation (channelId, conversation.id and user.id are required)');
  return {
    connectionName,
    msAppId: text(decoded.msAppId) ?? '',
    conversation: {
      channelId,
      conversationId,
      userId,
      ...(text(reference.serviceUrl) !== undefined && { serviceUrl: text(reference.serviceUrl) }),
      ...(text(record(reference.bot).id) !== undefined && { botId: text(record(reference.bot).id) }),
      ...(text(reference.activityId) !== undefined && { activityId: text(reference.activityId) }),
    },
  };
}
