import { Module } from '@nestjs/common';
import { AccessTokenService } from './access-token.service';
import { ClientAuthenticator } from './client-authenticator.service';
import { OAuthErrorFilter } from './oauth-error.filter';
import { TokenController } from './token.controller';

/** The OAuth 2.0 client-credentials token endpoint bots get their `/v3` tokens from. */
@Module({
  controllers: [TokenController],
  providers: [AccessTokenService, ClientAuthenticator, OAuthErrorFilter],
  exports: [AccessTokenService],
})
export class OAuthModule {}
