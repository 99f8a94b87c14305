import { HttpException } from '@nestjs/common';
import { type Logger } from 'pino';
import { type WireError, WireExceptionFilter } from './wire-exception.filter';

/** The `{"error":{"code","message"}}` error body (the gateways' wire format names the codes). */
export interface ErrorEnvelope {
  error: { code: string; message: string };
  /** Direct Line adds the bot's status when a delivery failed. */
  httpStatusCode?: number;
}

/** What an envelope error adds to its status, code and message. */
export interface ErrorEnvelopeExtra {
  /** Direct Line adds the bot's status when a delivery failed. */
  httpStatusCode?: number;
  /** Response headers (WWW-Authenticate, Retry-After, …). */
  headers?: Record<string, string>;
}

/**
 * The shape of an error an app's wire contracts define without Nest (the gateways' `BotFrameworkError`): its status,
 * its stable code, its message and extras. The app hands the class to its filter, which renders it.
 */
export interface EnvelopeError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly extra: ErrorEnvelopeExtra;
}

/** A class of plain envelope errors, as an app hands it to {@link ErrorEnvelopeExceptionFilter}. */
export type EnvelopeErrorClass = abstract new (...args: never[]) => EnvelopeError;

/** An error with the stable code its wire format promises; the app's catalogue names the codes. */
export class ErrorEnvelopeException extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: ErrorEnvelopeExtra = {},
  ) {
    super(message, status);
  }
}

/**
 * The codes of errors no call site named: Nest's own (unknown route, 405 …), the body parser's refusals and
 * unexpected faults. The app's wire format supplies them; this library knows none.
 */
export interface ErrorEnvelopeCodes<Code extends string = string> {
  /** By HTTP status. */
  byStatus: Readonly<Partial<Record<number, Code>>>;
  /** A body the JSON parser refused (Nest maps body-parser's SyntaxError to a 400 with it as the cause). */
  unparsableBody: Code;
  /** Any other 4xx. */
  clientError: Code;
  /** Any other 5xx. */
  serverError: Code;
}

function messageOf(exception: unknown): string {
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
    return exception.message;
  }
  return 'An internal error occurred';
}

/**
 * The `{error:{code,message}}` rendering the gateways' exception filters extend: an ErrorEnvelopeException, or an
 * instance of the app's own plain error class (`envelopeErrors`), keeps its status, code (and `httpStatusCode`,
 * headers); any other error gets the code `codes` assign it.
 */
export class ErrorEnvelopeExceptionFilter extends WireExceptionFilter {
  constructor(
    logger: Logger,
    private readonly codes: ErrorEnvelopeCodes,
    private readonly envelopeErrors?: EnvelopeErrorClass,
  ) {
    super(logger);
  }

  /** The envelope error this is (status, code, message, extras), or undefined. */
  private envelopeOf(exception: unknown): EnvelopeError | undefined {
    if (exception instanceof ErrorEnvelopeException)
      return {
        status: exception.getStatus(),
        code: exception.code,
        message: exception.message,
        extra: exception.extra,
      };
    if (this.envelopeErrors && exception instanceof this.envelopeErrors) return exception;
    return undefined;
  }

  protected override statusOf(exception: unknown): number | undefined {
    return this.envelopeOf(exception)?.status ?? super.statusOf(exception);
  }

  protected renderBody({ status, exception, errorId }: WireError): ErrorEnvelope {
    const own = this.envelopeOf(exception);
    if (own) {
      const body: ErrorEnvelope = { error: { code: own.code, message: own.message } };
      if (own.extra.httpStatusCode !== undefined) body.httpStatusCode = own.extra.httpStatusCode;
      return body;
    }
    const unparsable = exception instanceof HttpException && exception.cause instanceof SyntaxError;
    const code = unparsable
      ? this.codes.unparsableBody
      : (this.codes.byStatus[status] ?? (status >= 500 ? this.codes.serverError : this.codes.clientError));
    const message =
      status >= 500 && !(exception instanceof HttpException)
        ? `An internal error occurred (error id ${errorId})`
        : messageOf(exception);
    return { error: { code, message } };
  }

  protected override renderHeaders({ exception }: WireError): Record<string, string> {
    return this.envelopeOf(exception)?.extra.headers ?? {};
  }
}
