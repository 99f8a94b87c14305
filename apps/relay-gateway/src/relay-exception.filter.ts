import { Catch, Inject, Injectable } from '@nestjs/common';
import { BOT_FRAMEWORK_DEFAULT_CODES, BotFrameworkError } from '@fieldops/contracts';
import {
  type ErrorEnvelope,
  ErrorEnvelopeExceptionFilter,
  LOGGER,
  type Logger,
  type WireError,
} from '@fieldops/platform';
import { v1ErrorCode, type V1ErrorBody } from './direct-line-v1/v1-error';

/** Paths of the Direct Line 1.1 API (`/api`, `/api/…`). */
const V1_PATH = /^\/api(\/|$)/;

/**
 * The relay's one exception filter: `{error:{code,message}}` (Direct Line 3.0) everywhere, and the 1.1 body
 * `{error:{code,message,statusCode}}` with a 1.1 code for every request under `/api`, unknown paths included.
 * A BotFrameworkError keeps its status, code and headers (Retry-After …).
 */
@Catch()
@Injectable()
export class RelayExceptionFilter extends ErrorEnvelopeExceptionFilter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super(logger, BOT_FRAMEWORK_DEFAULT_CODES, BotFrameworkError);
  }

  protected override renderBody(error: WireError): ErrorEnvelope | V1ErrorBody {
    const envelope: ErrorEnvelope = super.renderBody(error);
    if (!V1_PATH.test(error.path)) return envelope;
    return {
      error: {
        code: v1ErrorCode(envelope.error.code, error.status),
        message: envelope.error.message,
        statusCode: error.status,
      },
    };
  }
}
