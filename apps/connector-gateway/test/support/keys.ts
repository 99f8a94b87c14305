import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';

export interface TestKeyPair {
  privateKey: KeyObject;
  privatePem: string;
  publicPem: string;
}

/** A fresh RSA key pair (2048 bits). */
export function rsaKeyPair(): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** A made-up SHA-1 thumbprint (hex) for registering a bare public key. */
export function hexThumbprint(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').toUpperCase();
}
