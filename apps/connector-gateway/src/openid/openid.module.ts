import { Module } from '@nestjs/common';
import { OpenIdController } from './openid.controller';

/** Discovery documents of the token authority (for bots' auth libraries). */
@Module({ controllers: [OpenIdController] })
export class OpenIdModule {}
