import { badArgument } from '@fieldops/contracts';

/**
 * A Direct Line token is valid for its one conversation: refuses (403) a request for `conversationId` with a token of
 * another conversation (`tokenConversation`; undefined: a token of another kind). The rule of every Direct Line route
 * with a conversation (DirectLineAuthGuard) and of the WebSocket stream's upgrade (its `t` stream token).
 */
export function assertTokenForConversation(
  tokenConversation: string | undefined,
  conversationId: string,
): void {
  if (tokenConversation !== conversationId)
    throw badArgument('Security token not valid for this conversation', 403);
}
