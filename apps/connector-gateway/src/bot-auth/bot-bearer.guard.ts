import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TokenVerificationError } from '@fieldops/auth';
import { IS_PUBLIC_KEY, LOGGER, type Logger, type RouteRequest } from '@fieldops/platform';
import { unauthorized } from '@fieldops/contracts';
import { ANONYMOUS_BOTS_KEY } from './anonymous-bots.decorator';
import { BotRegistry } from '../bots/bot-registry';
import { BotAccessTokenVerifier, type BotPrincipal } from './bot-access-token-verifier';

export type RequestWithBot = RouteRequest & { bot?: BotPrincipal };

const MESSAGES: Record<TokenVerificationError['reason'], string> = {
  missing: 'Authorization header with a Bearer token is required.',
  malformed: 'The bearer token is not a JWT.',
  expired: 'The bearer token has expired.',
  'unknown-key': 'The bearer token is signed with an unknown key.',
  invalid: 'The bearer token is not valid for this service.',
};

/**
 * The app's global guard: every route not marked `@Public()` needs `Authorization: Bearer <token>` with
 * a token this gateway issued to a registered bot (fail-closed). The bot is put on `request.bot`.
 * Refusals are 401 `{"error":{"code":"Unauthorized","message":…}}`, before the request's body is read. A request
 * without Authorization on a route open to anonymous bots passes only while some bot is registered `anonymous: true`
 * (an anonymous bot has no credentials; the route admits it for that bot's resources only).
 */
@Injectable()
export class BotBearerGuard implements CanActivate {
  private readonly anonymousBots: boolean;

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: BotAccessTokenVerifier,
    @Inject(LOGGER) private readonly logger: Logger,
    registry: BotRegistry,
  ) {
    this.anonymousBots = registry.all().some((bot) => bot.anonymous);
  }

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<RequestWithBot>();
    // Node's own header (the request may not be Express's: the front's hot routes run this guard too).
    const header = request.headers.authorization ?? '';
    // Anonymous bots send no Authorization at all; the route then checks the conversation's bot is anonymous.
    if (
      header === '' &&
      this.anonymousBots &&
      this.reflector.getAllAndOverride<boolean | undefined>(ANONYMOUS_BOTS_KEY, [
        context.getHandler(),
        context.getClass(),
      ])
    )
      return true;
    const [scheme, token, ...rest] = header.split(' ');
    try {
      if (scheme !== 'Bearer' || !token || rest.length > 0)
        throw new TokenVerificationError('missing', 'no bearer token');
      request.bot = this.verifier.verify(token);
      return true;
    } catch (error) {
      if (!(error instanceof TokenVerificationError)) throw error;
      this.logger.info({ reason: error.reason, detail: error.message }, 'bearer token refused');
      throw unauthorized(MESSAGES[error.reason]);
    }
  }
}
