import {
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';

export type SymmetricAlgorithm = 'HS256' | 'HS384' | 'HS512';
export type AsymmetricAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'ES256' | 'ES384' | 'ES512' | 'PS256';
export type SigningAlgorithm = SymmetricAlgorithm | AsymmetricAlgorithm;

/** One key of a ring. Private material stays in memory; only asymmetric public halves are ever published. */
export interface SigningKeyDefinition {
  kid: string;
  algorithm: SigningAlgorithm;
  /** HMAC secret (HS*) or PEM private key (RS/ES/PS*). */
  secret: string | KeyObject;
  /** When the key may start signing. Before that it is only published (JWKS), so verifiers learn it first. */
  activatesAt?: Date;
  /** When it stops signing. It still verifies until `expiresAt`. */
  retiresAt?: Date;
  /** When it stops verifying too (a retired key is kept for one token lifetime). */
  expiresAt?: Date;
}

export interface SigningKey {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  /** What signs: the HMAC secret or the private key. */
  readonly signingMaterial: KeyObject;
  /** What verifies: the HMAC secret or the public key. */
  readonly verificationMaterial: KeyObject;
  readonly activatesAt: Date;
  readonly retiresAt?: Date;
  readonly expiresAt?: Date;
}

function toKey(definition: SigningKeyDefinition): SigningKey {
  const symmetric = definition.algorithm.startsWith('HS');
  let signingMaterial: KeyObject;
  if (typeof definition.secret === 'string') {
    signingMaterial = symmetric
      ? createSecretKey(Buffer.from(definition.secret, 'utf8'))
      : createPrivateKey(definition.secret);
  } else {
    signingMaterial = definition.secret;
  }
  if (symmetric && signingMaterial.type !== 'secret')
    throw new Error(`key ${definition.kid}: ${definition.algorithm} needs a secret`);
  if (!symmetric && signingMaterial.type !== 'private')
    throw new Error(`key ${definition.kid}: ${definition.algorithm} needs a private key`);
  return {
    kid: definition.kid,
    algorithm: definition.algorithm,
    signingMaterial,
    verificationMaterial: symmetric ? signingMaterial : createPublicKey(signingMaterial),
    activatesAt: definition.activatesAt ?? new Date(0),
    retiresAt: definition.retiresAt,
    expiresAt: definition.expiresAt,
  };
}

export interface RotationOptions {
  /** How long the new key is published before it signs (verifiers refresh their key sets meanwhile). */
  publishAheadMs: number;
  /** How long the old key keeps verifying after it stops signing: at least the longest token lifetime. */
  retainOldForMs: number;
}

/**
 * The keys a token authority signs and verifies with. Rotation is overlap-based: a new key is published
 * before it signs, and the old one verifies for one token lifetime after it stops signing, so no valid
 * token is ever refused during a rotation.
 */
export class KeyRing {
  private keys: SigningKey[];

  constructor(
    definitions: SigningKeyDefinition[],
    private readonly now: () => number = Date.now,
  ) {
    if (definitions.length === 0) throw new Error('a key ring needs at least one key');
    const kids = new Set<string>();
    this.keys = definitions.map((definition) => {
      if (kids.has(definition.kid)) throw new Error(`duplicate key id ${definition.kid}`);
      kids.add(definition.kid);
      return toKey(definition);
    });
  }

  /** The key that signs now: the most recently activated key that is active and not retired. */
  signingKey(): SigningKey {
    const at = this.now();
    const candidates = this.keys.filter(
      (key) =>
        key.activatesAt.getTime() <= at &&
        (key.retiresAt === undefined || key.retiresAt.getTime() > at) &&
        (key.expiresAt === undefined || key.expiresAt.getTime() > at),
    );
    const newest = candidates.sort((a, b) => b.activatesAt.getTime() - a.activatesAt.getTime())[0];
    if (!newest) throw new Error('no signing key is active');
    return newest;
  }

  /** A key that may verify a token now, by its `kid`; undefined when unknown or expired. */
  verificationKey(kid: string): SigningKey | undefined {
    const at = this.now();
    return this.keys.find(
      (key) => key.kid === kid && (key.expiresAt === undefined || key.expiresAt.getTime() > at),
    );
  }

  /** Every key that currently verifies, including ones published ahead of use. */
  verificationKeys(): SigningKey[] {
    const at = this.now();
    return this.keys.filter((key) => key.expiresAt === undefined || key.expiresAt.getTime() > at);
  }

  /** The JWKS document (RFC 7517) of the asymmetric keys that verify now. */
  publicJwks(): { keys: JsonWebKey[] } {
    return {
      keys: this.verificationKeys()
        .filter((key) => !key.algorithm.startsWith('HS'))
        .map((key) => ({
          ...key.verificationMaterial.export({ format: 'jwk' }),
          kid: key.kid,
          use: 'sig',
          alg: key.algorithm,
        })),
    };
  }

  /**
   * Adds `next` as the coming signing key and schedules the current one to retire when `next`
   * activates; expired keys are dropped.
   */
  rotate(
    next: Omit<SigningKeyDefinition, 'activatesAt' | 'retiresAt' | 'expiresAt'>,
    options: RotationOptions,
  ): void {
    const at = this.now();
    if (this.keys.some((key) => key.kid === next.kid)) throw new Error(`duplicate key id ${next.kid}`);
    const activatesAt = new Date(at + options.publishAheadMs);
    const current = this.signingKey();
    const retired: SigningKey = {
      ...current,
      retiresAt: activatesAt,
      expiresAt: new Date(activatesAt.getTime() + options.retainOldForMs),
    };
    this.keys = [
      ...this.keys.filter(
        (key) => key !== current && (key.expiresAt === undefined || key.expiresAt.getTime() > at),
      ),
      retired,
      toKey({ ...next, activatesAt }),
    ];
  }
}
