import { ErrorEnvelopeException } from '@fieldops/platform';

/**
 * How the chat page's token route answers when the chat relay fails it, in the bot's wire format
 * (`{"error":{"code":"ServiceError","message"}}`, `inspection-bot-exception.filter.ts`): 503 when the relay cannot be
 * reached, 502 when it refused the request (its status named in the message).
 */
export const relayUnreachable = (): ErrorEnvelopeException =>
  new ErrorEnvelopeException(503, 'ServiceError', 'The chat relay is not reachable.');

export const relayRefused = (relayStatus: number): ErrorEnvelopeException =>
  new ErrorEnvelopeException(
    502,
    'ServiceError',
    `The chat relay refused the token request (${relayStatus}).`,
  );
