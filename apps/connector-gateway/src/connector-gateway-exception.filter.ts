import { Catch, HttpException, Inject, Injectable } from '@nestjs/common';
import { BOT_FRAMEWORK_DEFAULT_CODES, BotFrameworkError } from '@fieldops/contracts';
import {
  ErrorEnvelopeExceptionFilter,
  LOGGER,
  type Logger,
  type WireError,
  WireExceptionFilter,
} from '@fieldops/platform';
import {
  TRANSLATOR_ERRORS,
  type TranslatorErrorBody,
  TranslatorException,
} from './ai-services/translator-error';

/** Translator operations answer every error in their own body, with a six-digit numeric code. */
const TRANSLATOR_PATH = /^\/translate\/?$/i;

/** The Bot Connector envelope rendering, reused for every path but the Translator's. */
class BotConnectorEnvelope extends ErrorEnvelopeExceptionFilter {
  status(exception: unknown): number | undefined {
    return this.statusOf(exception);
  }

  body(error: WireError): unknown {
    return this.renderBody(error);
  }

  headers(error: WireError): Record<string, string> {
    return this.renderHeaders(error);
  }
}

/**
 * connector-gateway's single exception filter: the Bot Connector envelope `{"error":{"code","message"}}`,
 * except on the Translator operation, whose errors carry a numeric code (`{"error":{"code":401000,…}}`).
 */
@Catch()
@Injectable()
export class ConnectorGatewayExceptionFilter extends WireExceptionFilter {
  private readonly envelope: BotConnectorEnvelope;

  constructor(@Inject(LOGGER) logger: Logger) {
    super(logger);
    this.envelope = new BotConnectorEnvelope(logger, BOT_FRAMEWORK_DEFAULT_CODES, BotFrameworkError);
  }

  /** A BotFrameworkError's own status; HttpException's (TranslatorException included) otherwise. */
  protected override statusOf(exception: unknown): number | undefined {
    return this.envelope.status(exception);
  }

  protected renderBody(error: WireError): unknown {
    if (error.exception instanceof TranslatorException)
      return {
        error: { code: error.exception.code, message: error.exception.message },
      } satisfies TranslatorErrorBody;
    if (TRANSLATOR_PATH.test(error.path)) {
      const code = error.status * 1000;
      const known = (TRANSLATOR_ERRORS as Record<number, string>)[code];
      const message =
        (error.exception instanceof HttpException || error.exception instanceof BotFrameworkError) &&
        error.status < 500
          ? error.exception.message
          : (known ?? TRANSLATOR_ERRORS[500000]);
      return { error: { code, message } } satisfies TranslatorErrorBody;
    }
    return this.envelope.body(error);
  }

  protected override renderHeaders(error: WireError): Record<string, string> {
    if (error.exception instanceof TranslatorException) return error.exception.headers;
    return this.envelope.headers(error);
  }
}
