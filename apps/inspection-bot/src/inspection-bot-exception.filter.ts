import { Catch } from '@nestjs/common';
import { ErrorEnvelopeExceptionFilter, type Logger } from '@fieldops/platform';

/**
 * The bot app's wire format for its own routes (the chat page's session and token routes): `{"error":{"code",
 * "message"}}` as the gateways answer. The messaging endpoint's answers are CloudAdapter's.
 */
@Catch()
export class InspectionBotExceptionFilter extends ErrorEnvelopeExceptionFilter {
  constructor(logger: Logger) {
    super(logger, {
      byStatus: {
        400: 'BadArgument',
        401: 'NotSignedIn',
        404: 'NotFound',
        405: 'BadArgument',
        429: 'TooManyRequests',
      },
      unparsableBody: 'BadSyntax',
      clientError: 'BadArgument',
      serverError: 'ServiceError',
    });
  }
}
