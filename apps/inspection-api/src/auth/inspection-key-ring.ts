import { randomBytes } from 'node:crypto';
import { KeyRing } from '@fieldops/auth';
import { type Logger } from '@fieldops/platform';
import { type InspectionApiEnvironment } from '../config/inspection-api.environment';

/** The HS256 key ring that signs inspection-api's access and refresh tokens. */
export function inspectionKeyRing(environment: InspectionApiEnvironment, logger: Logger): KeyRing {
  let secret = environment.INSPECTION_JWT_SIGNING_KEY;
  if (!secret) {
    secret = randomBytes(48).toString('base64url');
    logger.warn('INSPECTION_JWT_SIGNING_KEY is unset: using a random key; tokens will not survive a restart');
  }
  return new KeyRing([{ kid: 'inspection-1', algorithm: 'HS256', secret }]);
}
