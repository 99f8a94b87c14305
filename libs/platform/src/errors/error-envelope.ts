import { HttpException } from '@nestjs/common';
import { type Logger } from 'pino';
import { type WireError, WireExceptionFilter } from './wire-exception.filter';

/** The `{"error":{"code","message"}}` error body (the gateways' wire format names the codes). */
export interface ErrorEnvelope {
  error: { code: string; message: string };
  /** Direct Line adds the bot's status when a delivery failed. */
  httpStatusCode?: number;
}

/** An error with the stable code its wire format promises; the app's catalogue names the codes. */
export class ErrorEnvelopeException extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: { httpStatusCode?: number; headers?: Record<string, string> } = {},
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
 * The `{error:{code,message}}` rendering the gateways' exception filters extend: an ErrorEnvelopeException keeps its
 * code (and `httpStatusCode`, headers); any other error gets the code `codes` assign it.
 */
export class ErrorEnvelopeExceptionFilter extends WireExceptionFilter {
  constructor(
    logger: Logger,
    private readonly codes: ErrorEnvelopeCodes,
  ) {
    super(logger);
  }

  protected renderBody({ status, exception, errorId }: WireError): ErrorEnvelope {
    if (exception instanceof ErrorEnvelopeException) {
      const body: ErrorEnvelope = { error: { code: exception.code, message: exception.message } };
      if (exception.extra.httpStatusCode !== undefined) body.httpStatusCode = exception.extra.httpStatusCode;
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
    return exception instanceof ErrorEnvelopeException ? (exception.extra.headers ?? {}) : {};
  }
}
