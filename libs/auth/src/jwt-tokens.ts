import jwt, { type JwtPayload } from 'jsonwebtoken';
import { type KeyRing, type SigningAlgorithm } from './key-ring';

export type TokenFailureReason = 'missing' | 'malformed' | 'expired' | 'unknown-key' | 'invalid';

/** Why a token was refused; apps map the reason to their own wire format. */
export class TokenVerificationError extends Error {
  constructor(
    readonly reason: TokenFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'TokenVerificationError';
  }
}

export interface SignOptions {
  expiresInSeconds: number;
  issuer?: string;
  audience?: string | string[];
  subject?: string;
  jwtId?: string;
  notBeforeSeconds?: number;
}

export interface VerifyOptions {
  /** Accepted algorithms; never includes `none`. Defaults to the algorithm of the key the token names. */
  algorithms?: SigningAlgorithm[];
  issuer?: string | string[];
  audience?: string | string[];
  clockToleranceSeconds?: number;
  /** Also accept tokens past their `exp` (for flows that check expiry themselves). */
  ignoreExpiration?: boolean;
}

/** Signs claims with the ring's current key; the header carries `kid` and `typ: JWT`. */
export function signJwt(keyRing: KeyRing, claims: Record<string, unknown>, options: SignOptions): string {
  const key = keyRing.signingKey();
  const signOptions: jwt.SignOptions = {
    algorithm: key.algorithm,
    keyid: key.kid,
    expiresIn: options.expiresInSeconds,
  };
  // jsonwebtoken rejects options that are present but undefined.
  if (options.issuer !== undefined) signOptions.issuer = options.issuer;
  if (options.audience !== undefined) signOptions.audience = options.audience;
  if (options.subject !== undefined) signOptions.subject = options.subject;
  if (options.jwtId !== undefined) signOptions.jwtid = options.jwtId;
  if (options.notBeforeSeconds !== undefined) signOptions.notBefore = options.notBeforeSeconds;
  return jwt.sign(claims, key.signingMaterial, signOptions);
}

/** Reads the `kid` of a token's header without trusting anything else in it. */
export function readKeyId(token: string): string | undefined {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded === 'string') return undefined;
  return typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined;
}

/** Verifies signature (by `kid`), algorithm, expiry, issuer and audience; throws TokenVerificationError. */
export function verifyJwt(keyRing: KeyRing, token: string, options: VerifyOptions = {}): JwtPayload {
  if (!token) throw new TokenVerificationError('missing', 'no token');
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded === 'string' || typeof decoded.payload === 'string') {
    throw new TokenVerificationError('malformed', 'token is not a JWT');
  }
  const kid = decoded.header.kid;
  const key = typeof kid === 'string' ? keyRing.verificationKey(kid) : undefined;
  if (!key) throw new TokenVerificationError('unknown-key', 'token is signed with an unknown key');
  const algorithms = options.algorithms ?? [key.algorithm];
  if (!algorithms.includes(key.algorithm))
    throw new TokenVerificationError('invalid', 'token algorithm is not accepted');
  try {
    return jwt.verify(token, key.verificationMaterial, {
      algorithms: [key.algorithm],
      issuer: options.issuer as string | [string, ...string[]] | undefined,
      audience: options.audience as string | [string, ...string[]] | undefined,
      clockTolerance: options.clockToleranceSeconds ?? 0,
      ignoreExpiration: options.ignoreExpiration ?? false,
      complete: false,
    }) as JwtPayload;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError)
      throw new TokenVerificationError('expired', 'token has expired');
    throw new TokenVerificationError('invalid', error instanceof Error ? error.message : 'token is invalid');
  }
}
