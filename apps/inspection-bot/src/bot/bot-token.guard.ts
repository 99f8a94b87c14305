import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { type Request } from 'express';
import { type BotFrameworkAuthentication } from 'botframework-connector';
import { ErrorEnvelopeException, LOGGER, type Logger } from '@fieldops/platform';

/** The bot's BotFrameworkAuthentication (the one CloudAdapter uses), as a Nest provider. */
export const BOT_FRAMEWORK_AUTHENTICATION = Symbol('BotFrameworkAuthentication');

/** The part of botframework-connector's ParameterizedBotFrameworkAuthentication the guard calls. */
interface HeaderValidation {
  JwtTokenValidation_validateAuthHeader(
    authHeader: string,
    channelId: string,
    serviceUrl: string,
  ): Promise<unknown>;
  credentialsFactory: { isAuthenticationDisabled(): Promise<boolean> };
}

/**
 * botbuilder's own check of an `Authorization` header, without the activity: issuer, signature (the channel's
 * OpenID keys), expiry, audience and claims, for channel, emulator and skill tokens alike — everything
 * `CloudAdapter.process` checks except what needs the body (the key's endorsement of the activity's channel id and
 * its serviceUrl claim, which CloudAdapter checks afterwards). botframework-connector exposes no such entry point
 * (its streaming one demands a channel id), so this calls the parameterized authentication's validation step; the
 * constructor fails at start-up if a botbuilder upgrade renames it.
 */
export function headerValidation(authentication: BotFrameworkAuthentication): HeaderValidation {
  const inner = ((authentication as unknown as { inner?: object }).inner ??
    authentication) as Partial<HeaderValidation>;
  const validate = inner.JwtTokenValidation_validateAuthHeader;
  const { credentialsFactory } = inner;
  if (typeof validate !== 'function' || typeof credentialsFactory?.isAuthenticationDisabled !== 'function') {
    throw new Error(
      'botframework-connector no longer has JwtTokenValidation_validateAuthHeader: update bot-token.guard.ts',
    );
  }
  return { JwtTokenValidation_validateAuthHeader: validate.bind(inner), credentialsFactory };
}

/** botframework-connector's AuthenticationError (duck-typed: botbuilder may carry its own copy of the package). */
function isAuthenticationError(error: unknown): error is Error {
  return error instanceof Error && error.constructor.name === 'AuthenticationError';
}

/**
 * The messaging endpoint's token check, before its body is read (BodyParsingInterceptor runs after guards): no
 * `Authorization` header, or one botbuilder would refuse, is a 401 with the body unread (the connection is closed after
 * it). A bot without an app id (anonymous, authentication disabled) lets requests through as botbuilder does.
 */
@Injectable()
export class BotTokenGuard implements CanActivate {
  private readonly validation: HeaderValidation;

  constructor(
    @Inject(BOT_FRAMEWORK_AUTHENTICATION) authentication: BotFrameworkAuthentication,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.validation = headerValidation(authentication);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers.authorization?.trim() ?? '';
    if (header === '') {
      if (await this.validation.credentialsFactory.isAuthenticationDisabled()) return true;
      this.refuse('AuthenticationError: no Authorization header');
    }
    try {
      await this.validation.JwtTokenValidation_validateAuthHeader(header, '', '');
    } catch (error) {
      // Anything but a refused token (the connector's keys could not be read …) is the filter's: 503 or 500.
      if (!isAuthenticationError(error)) throw error;
      this.refuse(`AuthenticationError: ${error.message}`);
    }
    return true;
  }

  private refuse(reason: string): never {
    this.logger.warn({ status: 401, reason }, 'activity refused: authentication failed');
    throw new ErrorEnvelopeException(401, 'Unauthorized', 'A valid bot token is required.');
  }
}
