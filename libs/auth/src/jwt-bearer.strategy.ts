import { Inject, Injectable, type Type } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { type JwtPayload } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_AUTH_OPTIONS, type JwtAuthOptions } from './jwt-auth.options';
import { readKeyId } from './jwt-tokens';

/**
 * passport-jwt over a key ring: the token's `kid` selects the verification key. passport keeps strategies in
 * one process-wide registry by name, so each JwtAuthModule gets its own name — several apps in one process
 * (the all-in-one `npm start`) then never verify with each other's keys.
 */
export function createJwtBearerStrategy(strategyName: string): Type<unknown> {
  @Injectable()
  class JwtBearerStrategy extends PassportStrategy(Strategy, strategyName) {
    constructor(@Inject(JWT_AUTH_OPTIONS) private readonly options: JwtAuthOptions) {
      super({
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        algorithms: options.algorithms,
        issuer: options.issuer,
        audience: options.audience,
        secretOrKeyProvider: (
          _request: unknown,
          rawToken: string,
          done: (error: Error | null, key?: string | Buffer) => void,
        ) => {
          const kid = readKeyId(rawToken);
          const key = kid === undefined ? undefined : options.keyRing.verificationKey(kid);
          if (!key) {
            done(new Error('token is signed with an unknown key'));
            return;
          }
          // jsonwebtoken accepts KeyObjects; passport-jwt's typing predates them.
          done(null, key.verificationMaterial as unknown as Buffer);
        },
      });
    }

    validate(claims: JwtPayload): unknown {
      return this.options.toPrincipal ? this.options.toPrincipal(claims) : claims;
    }
  }
  return JwtBearerStrategy;
}
