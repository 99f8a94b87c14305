import { type JwtPayload } from 'jsonwebtoken';
import { type KeyRing, type SigningAlgorithm } from './key-ring';

export const JWT_AUTH_OPTIONS = Symbol('JWT_AUTH_OPTIONS');

export interface JwtAuthOptions {
  keyRing: KeyRing;
  algorithms: SigningAlgorithm[];
  issuer?: string | string[];
  audience?: string | string[];
  /** Turns verified claims into the request's principal (`request.user`); return null to refuse the token. */
  toPrincipal?: (claims: JwtPayload) => unknown;
}
