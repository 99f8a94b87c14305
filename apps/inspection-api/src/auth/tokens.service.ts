import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KeyRing, signJwt, TokenVerificationError, verifyJwt } from '@fieldops/auth';
import { type JwtPayload } from 'jsonwebtoken';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { tokenNotValid, DrfException } from '../drf/exceptions';
import { type Role } from '../users/role';
import { UsersService } from '../users/users.service';
import {
  TOKEN_REVOKED,
  TOKEN_WITHOUT_USER,
  USER_INACTIVE,
  USER_NOT_FOUND,
  WRONG_TOKEN_TYPE,
} from './auth-failures';
import { issuedBeforeRevocation, TokenBlacklist } from './token-revocation';

type TokenType = 'access' | 'refresh';

/** The authenticated principal of a request (`request.user`). */
export interface Principal {
  userId: number;
  username: string;
  role: Role;
}

/** simplejwt's tokens: HS256 JWTs with token_type, jti, iat, exp and user_id. */
@Injectable()
export class TokensService {
  constructor(
    @Inject(KeyRing) private readonly keyRing: KeyRing,
    private readonly environment: InspectionApiEnvironment,
    private readonly users: UsersService,
    private readonly blacklist: TokenBlacklist,
  ) {}

  private sign(userId: number, tokenType: TokenType): string {
    return signJwt(
      this.keyRing,
      { token_type: tokenType, user_id: userId },
      {
        expiresInSeconds:
          tokenType === 'access'
            ? this.environment.INSPECTION_ACCESS_TOKEN_LIFETIME_SECONDS
            : this.environment.INSPECTION_REFRESH_TOKEN_LIFETIME_SECONDS,
        jwtId: randomUUID().replace(/-/g, ''),
      },
    );
  }

  pair(userId: number): { refresh: string; access: string } {
    return { refresh: this.sign(userId, 'refresh'), access: this.sign(userId, 'access') };
  }

  /** A refresh token's claims once its signature, expiry, type and id check out (401 token_not_valid if not). */
  private refreshClaims(token: string): JwtPayload & { jti: string } {
    let claims: JwtPayload;
    try {
      claims = verifyJwt(this.keyRing, token, { algorithms: ['HS256'] });
    } catch (error) {
      if (error instanceof TokenVerificationError) throw tokenNotValid(TOKEN_REVOKED);
      throw error;
    }
    if (typeof claims.jti !== 'string') throw tokenNotValid('Token has no id');
    if (claims.token_type !== 'refresh') throw tokenNotValid(WRONG_TOKEN_TYPE);
    return claims as JwtPayload & { jti: string };
  }

  /**
   * POST /api/token/refresh/: a new access token for a valid refresh token, refused (401 token_not_valid) when it
   * is blacklisted or was issued before its user's tokens were revoked.
   */
  async refresh(token: string): Promise<{ access: string }> {
    const claims = this.refreshClaims(token);
    if (await this.blacklist.has(claims.jti)) throw tokenNotValid('Token is blacklisted');
    const userId = claims.user_id as unknown;
    if (typeof userId !== 'number' || (await this.users.principalState(userId)) !== 'active') {
      throw new DrfException(
        401,
        { detail: 'No active account found for the given token.', code: 'no_active_account' },
        { 'WWW-Authenticate': 'Bearer realm="api"' },
      );
    }
    if (issuedBeforeRevocation(claims.iat, (await this.users.principal(userId))?.validFrom)) {
      throw tokenNotValid(TOKEN_REVOKED);
    }
    return { access: this.sign(userId, 'access') };
  }

  /** POST /api/token/blacklist/ (simplejwt's TokenBlacklistView): this refresh token is refused from now on. */
  async blacklistRefresh(token: string): Promise<void> {
    const claims = this.refreshClaims(token);
    const userId = typeof claims.user_id === 'number' ? claims.user_id : undefined;
    await this.blacklist.add(claims.jti, userId, claims.exp ?? Math.floor(Date.now() / 1000));
  }

  /** The bearer check after the signature and expiry passed (JWTAuthentication's remaining checks). */
  async principal(claims: JwtPayload): Promise<Principal> {
    if (claims.token_type !== 'access') throw new Error(WRONG_TOKEN_TYPE);
    if (typeof claims.jti !== 'string') throw new Error(WRONG_TOKEN_TYPE);
    const userId = claims.user_id as unknown;
    if (typeof userId !== 'number') throw new Error(TOKEN_WITHOUT_USER);
    const user = await this.users.principal(userId);
    if (!user) throw new Error(USER_NOT_FOUND);
    if (!user.active) throw new Error(USER_INACTIVE);
    if (issuedBeforeRevocation(claims.iat, user.validFrom)) throw new Error(TOKEN_REVOKED);
    return { userId, username: user.username, role: user.role };
  }
}
