import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { KeyRing, TokenVerificationError, verifyJwt } from '@fieldops/auth';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type Request } from 'express';
import { type JwtPayload } from 'jsonwebtoken';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { DrfException, tokenNotValid } from '../drf/exceptions';
import { AUTH_FAILURES } from './auth-failures';
import { TokensService } from './tokens.service';

const INVALID_TOKEN = 'Given token not valid for any token type';

/**
 * The header in which a trusted sign-in service (the chat page's bot) names the address of the person whose
 * password it exchanges at `POST /api/token/`. Believed only together with the bearer access token of an account
 * listed in INSPECTION_LOGIN_ADDRESS_FORWARDERS; anyone else's copy is ignored.
 */
export const CLIENT_ADDRESS_HEADER = 'x-fieldops-client-address';

/**
 * The client address the login throttle counts for a `POST /api/token/`: the request's address (`request.ip`: the
 * peer, or a trusted proxy's X-Forwarded-For), or, when a forwarding account (a service such as the inspection bot,
 * which exchanges its users' passwords from its own address) sends its bearer token with
 * {@link CLIENT_ADDRESS_HEADER}, the address named there. A stranger cannot forge it: without a forwarder's valid
 * access token the header is not believed. A bearer token that does not verify is simplejwt's 401
 * `token_not_valid` (the forwarder renews its token and tries again).
 */
@Injectable()
export class LoginClientAddress {
  private readonly forwarders: ReadonlySet<string>;
  private readonly warned = new Set<string>();

  constructor(
    environment: InspectionApiEnvironment,
    @Inject(KeyRing) private readonly keyRing: KeyRing,
    private readonly tokens: TokensService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.forwarders = new Set(environment.INSPECTION_LOGIN_ADDRESS_FORWARDERS);
  }

  async of(request: Request): Promise<string> {
    const own = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    const named = request.headers[CLIENT_ADDRESS_HEADER];
    if (named === undefined) return own;
    const authorization = request.headers.authorization;
    if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) return own;
    const username = await this.forwarderOf(authorization.slice('Bearer '.length));
    if (!this.forwarders.has(username)) {
      if (!this.warned.has(username)) {
        this.warned.add(username);
        this.logger.warn(
          { username, header: CLIENT_ADDRESS_HEADER },
          'a login named a client address with the token of an account not listed in INSPECTION_LOGIN_ADDRESS_FORWARDERS; counting the request against its own address',
        );
      }
      return own;
    }
    const address = typeof named === 'string' ? named.trim() : '';
    if (isIP(address) === 0) {
      throw new DrfException(400, { detail: `${CLIENT_ADDRESS_HEADER} must be one IP address.` });
    }
    return address;
  }

  /** The user name of a valid access token; 401 token_not_valid otherwise. */
  private async forwarderOf(token: string): Promise<string> {
    let claims: JwtPayload;
    try {
      claims = verifyJwt(this.keyRing, token, { algorithms: ['HS256'] });
    } catch (error) {
      if (error instanceof TokenVerificationError) throw tokenNotValid(INVALID_TOKEN);
      throw error;
    }
    try {
      return (await this.tokens.principal(claims)).username;
    } catch (error) {
      // The principal check's refusals (wrong type, unknown or inactive user); a database failure stays one.
      if (error instanceof Error && error.message in AUTH_FAILURES) throw tokenNotValid(INVALID_TOKEN);
      throw error;
    }
  }
}
