import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KeyRing, type SigningKeyDefinition } from '@fieldops/auth';
import { type Logger } from '@fieldops/platform';
import { type ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { keyIdOf, parseRsaPrivateKey, type ResolvedSigningKey } from '../config/signing-keys.setting';

/** Tolerated clock skew between the gateway, bots and other replicas (botbuilder uses the same 300 s). */
export const CLOCK_SKEW_SECONDS = 300;

/**
 * Turns the configured keys into a rotation schedule: each key signs from its `activatesAt` until the next
 * key activates, then verifies (and stays published) for one token lifetime plus the clock skew. Every
 * replica computes the same schedule from the same configuration, so no coordination is needed.
 */
export function rotationSchedule(
  keys: ResolvedSigningKey[],
  tokenLifetimeSeconds: number,
): SigningKeyDefinition[] {
  const ordered = [...keys].sort((a, b) => a.activatesAt.getTime() - b.activatesAt.getTime());
  return ordered.map((key, index) => {
    const successor = ordered[index + 1];
    const definition: SigningKeyDefinition = {
      kid: key.kid,
      algorithm: 'RS256',
      secret: key.privateKey,
      activatesAt: key.activatesAt,
    };
    if (successor) {
      definition.retiresAt = successor.activatesAt;
      definition.expiresAt = new Date(
        successor.activatesAt.getTime() + (tokenLifetimeSeconds + CLOCK_SKEW_SECONDS) * 1000,
      );
    }
    return definition;
  });
}

/**
 * The development key used when no keys are configured: read from `file`, or generated and written there
 * on first start (0600). Two processes starting together agree on one key (exclusive create, then re-read).
 */
export function loadOrCreateDevelopmentKey(file: string, logger: Logger): ResolvedSigningKey {
  const read = (): ResolvedSigningKey => {
    const privateKey = parseRsaPrivateKey(readFileSync(file, 'utf8'));
    return { kid: keyIdOf(privateKey), privateKey, activatesAt: new Date(0) };
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { flag: 'wx', mode: 0o600 });
    logger.warn(
      { file },
      'CONNECTOR_SIGNING_KEYS is unset: generated a development signing key; configure shared keys for production',
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}

/** The gateway's key ring: the configured keys on their rotation schedule, or the development key. */
export function createConnectorKeyRing(
  environment: ConnectorGatewayEnvironment,
  logger: Logger,
  now: () => number = Date.now,
): KeyRing {
  const configured = environment.configuredSigningKeys();
  const keys = configured ?? [loadOrCreateDevelopmentKey(environment.CONNECTOR_DEV_SIGNING_KEY_FILE, logger)];
  return new KeyRing(rotationSchedule(keys, environment.CONNECTOR_TOKEN_LIFETIME_SECONDS), now);
}
