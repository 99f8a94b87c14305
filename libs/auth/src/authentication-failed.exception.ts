import { UnauthorizedException } from '@nestjs/common';
import { type TokenFailureReason } from './jwt-tokens';

/** A 401 that says why, so each app's exception filter can render its own wire body. */
export class AuthenticationFailedException extends UnauthorizedException {
  constructor(
    readonly reason: TokenFailureReason,
    message: string,
  ) {
    super(message);
  }
}
