import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { CLOCK_SKEW_SECONDS } from '../signing-keys/connector-key-ring';
import { BotRegistry } from '../bots/bot-registry';
import { type BotRegistration } from '../bots/registered-bot';
import { type ClientAuthenticationMethod } from './access-token.service';
import { JWT_BEARER_ASSERTION_TYPE, type TokenRequestForm } from './dto/token.dto';
import { OAuthError } from './oauth-error';

/** Client assertions live ten minutes with msal; anything valid for longer than a day is refused. */
const MAX_ASSERTION_LIFETIME_SECONDS = 86_400;

export interface AuthenticatedClient {
  bot: BotRegistration;
  method: ClientAuthenticationMethod;
}

/**
 * Authenticates the client of a token request: `client_secret` (client_secret_post) or an RFC 7523
 * `client_assertion` signed by one of the bot's registered certificates (private_key_jwt).
 */
@Injectable()
export class ClientAuthenticator {
  constructor(private readonly registry: BotRegistry) {}

  async authenticate(
    form: TokenRequestForm & { client_id: string },
    tokenEndpoint: string,
  ): Promise<AuthenticatedClient> {
    const hasSecret = form.client_secret !== undefined;
    const hasAssertion = form.client_assertion !== undefined || form.client_assertion_type !== undefined;
    if (hasSecret && hasAssertion) {
      throw new OAuthError(
        400,
        'invalid_request',
        90014,
        "Only one of 'client_secret' and 'client_assertion' may be given.",
      );
    }
    const bot = this.registry.find(form.client_id);
    if (!bot || bot.anonymous) throw OAuthError.unknownClient(form.client_id);
    if (!hasSecret && !hasAssertion) throw OAuthError.noCredentials();
    if (hasSecret) {
      if (!(await this.registry.verifyAppPassword(bot, form.client_secret ?? ''))) {
        throw OAuthError.badSecret(form.client_id);
      }
      return { bot, method: 'secret' };
    }
    if (form.client_assertion_type === undefined) throw OAuthError.missingParameter('client_assertion_type');
    if (form.client_assertion_type !== JWT_BEARER_ASSERTION_TYPE) {
      throw new OAuthError(
        400,
        'invalid_request',
        700023,
        `Unsupported client_assertion_type '${form.client_assertion_type}'; use '${JWT_BEARER_ASSERTION_TYPE}'.`,
      );
    }
    if (form.client_assertion === undefined) throw OAuthError.missingParameter('client_assertion');
    this.verifyAssertion(bot, form.client_assertion, tokenEndpoint);
    return { bot, method: 'certificate' };
  }

  private verifyAssertion(bot: BotRegistration, assertion: string, tokenEndpoint: string): void {
    const decoded = jwt.decode(assertion, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') {
      throw new OAuthError(400, 'invalid_request', 50027, 'JWT token is invalid or malformed.');
    }
    const header = decoded.header as jwt.JwtHeader & { 'x5t#S256'?: unknown };
    const reference = {
      x5t: typeof header.x5t === 'string' ? header.x5t : undefined,
      x5tS256: typeof header['x5t#S256'] === 'string' ? header['x5t#S256'] : undefined,
    };
    if (reference.x5t === undefined && reference.x5tS256 === undefined) {
      throw OAuthError.badAssertion('The assertion header names no certificate (x5t or x5t#S256).');
    }
    const certificate = this.registry.findCertificate(bot, reference);
    if (!certificate) {
      throw OAuthError.badAssertion(
        `The key was not found. No certificate with thumbprint ${reference.x5tS256 ?? reference.x5t} is registered for '${bot.appId}'.`,
      );
    }
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(assertion, certificate.publicKey, {
        algorithms: ['RS256', 'PS256'],
        audience: tokenEndpoint,
        issuer: bot.appId,
        subject: bot.appId,
        clockTolerance: CLOCK_SKEW_SECONDS,
      }) as jwt.JwtPayload;
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) {
        throw new OAuthError(
          401,
          'invalid_client',
          700024,
          'Client assertion is not within its valid time range.',
        );
      }
      throw OAuthError.badAssertion((error as Error).message);
    }
    if (typeof claims.exp !== 'number') throw OAuthError.badAssertion("The assertion has no 'exp' claim.");
    if (typeof claims.jti !== 'string' || claims.jti === '')
      throw OAuthError.badAssertion("The assertion has no 'jti' claim.");
    const start = claims.nbf ?? claims.iat ?? Math.floor(Date.now() / 1000);
    if (claims.exp - start > MAX_ASSERTION_LIFETIME_SECONDS) {
      throw new OAuthError(401, 'invalid_client', 700024, 'Client assertion is valid for more than a day.');
    }
  }
}
