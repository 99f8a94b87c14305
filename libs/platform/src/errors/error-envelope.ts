import { HttpException, Inject, Injectable } from '@nestjs/common';
import { Catch } from '@nestjs/common';
import { type Logger } from 'pino';
import { LOGGER } from '../platform.module';
import { type WireError, WireExceptionFilter } from './wire-exception.filter';

/** The Bot Framework / Direct Line error body: `{"error":{"code","message"}}`. */
export interface ErrorEnvelope {
  error: { code: string; message: string };
  /** Direct Line adds the bot's status when a delivery failed. */
  httpStatusCode?: number;
}

/** An error with the stable code the wire format promises (`BadArgument`, `TokenExpired`, `BotError` …). */
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

const DEFAULT_CODES: Record<number, string> = {
  400: 'BadArgument',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'Timeout',
  409: 'Conflict',
  413: 'MessageSizeTooBig',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  502: 'BotError',
  503: 'ServiceUnavailable',
  504: 'BotTimeout',
};

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

/** The exception filter of relay-gateway and connector-gateway: every error leaves as an ErrorEnvelope. */
@Catch()
@Injectable()
export class ErrorEnvelopeExceptionFilter extends WireExceptionFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super(logger);
  }

  protected renderBody({ status, exception, errorId }: WireError): ErrorEnvelope {
    if (exception instanceof ErrorEnvelopeException) {
      const body: ErrorEnvelope = { error: { code: exception.code, message: exception.message } };
      if (exception.extra.httpStatusCode !== undefined) body.httpStatusCode = exception.extra.httpStatusCode;
      return body;
    }
    // A body the JSON parser refused (Nest maps body-parser's SyntaxError to a 400 with it as the cause).
    const unparsable = exception instanceof HttpException && exception.cause instanceof SyntaxError;
    const code = unparsable
      ? 'BadSyntax'
      : (DEFAULT_CODES[status] ?? (status >= 500 ? 'ServiceError' : 'BadArgument'));
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
