import { Catch, HttpException, Inject, Injectable } from '@nestjs/common';
import { AuthenticationFailedException } from '@fieldops/auth';
import { LOGGER, type WireError, WireExceptionFilter } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';

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

/** inspection-api's wire format: Django REST Framework error bodies (`{"detail": …}` or field → messages). */
@Catch()
@Injectable()
export class DrfExceptionFilter extends WireExceptionFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super(logger);
  }

  protected renderBody({ status, exception }: WireError): unknown {
    if (exception instanceof AuthenticationFailedException) {
      if (exception.reason === 'missing') return { detail: 'Authentication credentials were not provided.' };
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
      return { detail: DEFAULT_DETAILS[status] ?? exception.message };
    }
    return { detail: 'A server error occurred.' };
  }

  protected override renderHeaders({ status }: WireError): Record<string, string> {
    return status === 401 ? { 'WWW-Authenticate': 'Bearer realm="api"' } : {};
  }
}
