import { HttpException } from '@nestjs/common';

/** The Translator v3 error codes the gateway answers with (notes §9.3). */
export const TRANSLATOR_ERRORS = {
  400000: 'One of the request inputs is not valid.',
  400019: 'One of the specified languages is not supported.',
  400021: 'The API version parameter is missing or invalid.',
  400035: 'The source language (from) is not valid.',
  400036: 'The target language (to) is missing or not valid.',
  400050: 'The input text is too long.',
  400072: 'The input array has too many elements.',
  400074: 'The body of the request is not valid JSON.',
  400077: 'The maximum request size has been exceeded.',
  401000: 'The request is not authorized because credentials are missing or invalid.',
  404000: 'The requested operation does not exist.',
  415000: 'The Content-Type header is missing or invalid.',
  429000: 'The server rejected the request because the client has exceeded request limits.',
  500000: 'An unexpected error occurred.',
  503000: 'The service is temporarily unavailable.',
} as const;

export type TranslatorErrorCode = keyof typeof TRANSLATOR_ERRORS;

/**
 * A Translator v3 error: HTTP status = the first three digits of the six-digit code, rendered by the app's
 * exception filter as `{"error":{"code":<number>,"message":…}}`.
 */
export class TranslatorException extends HttpException {
  constructor(
    /** A TranslatorErrorCode, or an upstream's six-digit code passed on. */
    readonly code: number,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      message ?? (TRANSLATOR_ERRORS as Record<number, string>)[code] ?? 'The request failed.',
      Math.floor(code / 1000),
    );
  }
}

/** The error body of the Translator API. */
export interface TranslatorErrorBody {
  error: { code: number; message: string };
}
