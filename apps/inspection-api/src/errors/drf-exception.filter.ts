import { Catch, HttpException, Inject, Injectable } from '@nestjs/common';
import { AuthenticationFailedException } from '@fieldops/auth';
import { LOGGER, type WireError, WireExceptionFilter } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { type ServerResponse } from 'node:http';
import { BAD_AUTHORIZATION_HEADER, type RequestWithAuthProblem } from '../auth/authorization-header';
import { AUTH_FAILURES } from '../auth/auth-failures';
import { DrfException } from '../drf/exceptions';
import { sendJson } from '../drf/json-renderer';
import { allowedMethods } from '../drf/routes';

const DEFAULT_DETAILS: Record<number, string> = {
  400: 'Malformed request.',
  401: 'Authentication credentials were not provided.',
  403: 'You do not have permission to perform this action.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Request entity too large.',
  415: 'Unsupported media type in request.',
  429: 'Request was throttled.',
};

/**
 * inspection-api's wire format: Django REST Framework error bodies (`{"detail": …}` or field → messages),
 * sent as `application/json` without a charset, with `WWW-Authenticate` on 401 and `Allow` on 405.
 */
@Catch()
@Injectable()
export class DrfExceptionFilter extends WireExceptionFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super(logger);
  }

  protected renderBody({ status, exception, request }: WireError): unknown {
    if (exception instanceof AuthenticationFailedException) {
      if ((request as RequestWithAuthProblem).authorizationProblem === BAD_AUTHORIZATION_HEADER)
        return {
          detail: 'Authorization header must contain two space-delimited values',
          code: 'bad_authorization_header',
        };
      if (exception.reason === 'missing') return { detail: 'Authentication credentials were not provided.' };
      const known = AUTH_FAILURES[exception.message];
      if (known) return known;
      return {
        detail: 'Given token not valid for any token type',
        code: 'token_not_valid',
        messages: [
          { token_class: 'AccessToken', token_type: 'access', message: 'Token is invalid or expired' },
        ],
      };
    }
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      // A body that is already DRF-shaped (field errors, {detail, code}) goes out as it is.
      if (typeof response === 'object' && response !== null && !('statusCode' in response)) return response;
      if (status === 405) return { detail: `Method "${request.method}" not allowed.` };
      return { detail: DEFAULT_DETAILS[status] ?? exception.message };
    }
    return { detail: 'A server error occurred.' };
  }

  protected override renderHeaders({ status, exception, path }: WireError): Record<string, string> {
    const headers: Record<string, string> = exception instanceof DrfException ? { ...exception.headers } : {};
    if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="api"';
    if (status === 405 && !headers.Allow) {
      const allow = allowedMethods(path);
      if (allow) headers.Allow = allow.join(', ');
    }
    return headers;
  }

  /** DRF's bytes: `application/json` without a charset parameter. */
  protected override send(response: ServerResponse, status: number, body: unknown): void {
    sendJson(response, status, body);
  }
}
