import { type CanActivate, type ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DependencyUnavailableException, IS_PUBLIC_KEY, isDependencyUnavailable } from '@fieldops/platform';
import { TokenExpiredError } from 'jsonwebtoken';
import { AuthenticationFailedException } from './authentication-failed.exception';
import { VerifiedBearerCache } from './verified-bearer.cache';

interface BearerRequest {
  headers?: { authorization?: string | string[] };
  user?: unknown;
}

/** The app's JwtAuthGuard instance (the global one), for pre-routed fronts. */
export const JWT_AUTH_GUARD = Symbol('JWT_AUTH_GUARD');

export interface JwtAuthGuardInstance extends CanActivate {
  activatesWithoutVerifying(context: ExecutionContext): boolean;
}

/**
 * The app's global guard for the passport strategy named `strategyName`: every route needs a valid bearer
 * JWT unless it (or its controller) is marked `@Public()`. A forgotten decorator therefore fails closed. A header
 * verified in the last few seconds is not verified again (VerifiedBearerCache).
 */
export function createJwtAuthGuard(strategyName: string): Type<JwtAuthGuardInstance> {
  @Injectable()
  class JwtAuthGuard extends AuthGuard(strategyName) {
    constructor(private readonly reflector: Reflector) {
      super();
    }

    private readonly verified = new VerifiedBearerCache();

    override canActivate(context: ExecutionContext) {
      return this.activatesWithoutVerifying(context) || super.canActivate(context);
    }

    /**
     * What canActivate decides without verifying a token: true for a public route, or (with `request.user` set) for
     * an Authorization header verified recently; false when the token must be verified. A pre-routed front calls it
     * and leaves the request to the framework on false.
     */
    activatesWithoutVerifying(context: ExecutionContext): boolean {
      const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (isPublic) return true;
      const request = context.switchToHttp().getRequest<BearerRequest>();
      const header = request.headers?.authorization;
      if (typeof header === 'string') {
        const principal = this.verified.principalOf(header);
        if (principal !== undefined) {
          request.user = principal;
          return true;
        }
      }
      return false;
    }

    override handleRequest<TUser = unknown>(
      error: unknown,
      user: TUser | false,
      info: unknown,
      context: ExecutionContext,
    ): TUser {
      if (user) {
        const header = context.switchToHttp().getRequest<BearerRequest>().headers?.authorization;
        if (typeof header === 'string') this.verified.remember(header, user);
        return user;
      }
      // The user lookup failed because a dependency is away: a 503, never a 401 that signs a valid token out.
      if (isDependencyUnavailable(error)) throw new DependencyUnavailableException(error);
      if (info instanceof TokenExpiredError)
        throw new AuthenticationFailedException('expired', 'token has expired');
      if (info instanceof Error && info.message === 'No auth token') {
        throw new AuthenticationFailedException('missing', 'authentication credentials were not provided');
      }
      const cause = error ?? info;
      throw new AuthenticationFailedException(
        'invalid',
        cause instanceof Error ? cause.message : 'token is invalid',
      );
    }
  }
  return JwtAuthGuard;
}
