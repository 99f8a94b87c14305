import { ErrorEnvelopeException } from '@fieldops/platform';
import { relayRefused, relayUnreachable } from './relay-token-errors';

describe('relay token errors', () => {
  it('a refusal by the relay is 502 ServiceError naming its status', () => {
    const error = relayRefused(403);
    expect(error).toBeInstanceOf(ErrorEnvelopeException);
    expect([error.getStatus(), error.code, error.message]).toEqual([
      502,
      'ServiceError',
      'The chat relay refused the token request (403).',
    ]);
  });

  it('an unreachable relay is 503 ServiceError', () => {
    const error = relayUnreachable();
    expect([error.getStatus(), error.code, error.message]).toEqual([
      503,
      'ServiceError',
      'The chat relay is not reachable.',
    ]);
  });
});
