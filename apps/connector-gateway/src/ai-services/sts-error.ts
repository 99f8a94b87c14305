import { ErrorEnvelopeException } from '@fieldops/platform';

/** The real service's message for a refused key (notes §9.1). */
export const ACCESS_DENIED_MESSAGE =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an ' +
  'active subscription and use a correct regional API endpoint for your resource.';

/**
 * The token exchange's (`/sts/v1.0/issueToken`) error codes: the real service answers a refused key with
 * `{"error":{"code":"401","message":…}}`, a string code, neither a Bot Connector code (`@fieldops/contracts`) nor a
 * Translator six-digit number (`translator-error.ts`).
 */
export const STS_ERRORS = { '401': ACCESS_DENIED_MESSAGE } as const;

export type StsErrorCode = keyof typeof STS_ERRORS;

/** A refusal of the token exchange, rendered by the app's exception filter in the Bot Connector envelope. */
export class StsException extends ErrorEnvelopeException {
  constructor(code: StsErrorCode, message: string = STS_ERRORS[code]) {
    super(Number(code), code, message);
  }
}
