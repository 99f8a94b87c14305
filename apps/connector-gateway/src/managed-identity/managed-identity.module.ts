import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { ManagedIdentityController } from './managed-identity.controller';

/** The App Service managed-identity endpoint (the zero-code token route for stock bots). */
@Module({ imports: [OAuthModule], controllers: [ManagedIdentityController] })
export class ManagedIdentityModule {}
