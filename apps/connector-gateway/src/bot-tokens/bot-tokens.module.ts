import { Module } from '@nestjs/common';
import { BotOpenIdController } from './bot-openid.controller';
import { BotTokenMinter } from './bot-token-minter.service';

/** Gateway → bot tokens and the OpenID metadata + JWKS bots validate them with. */
@Module({ controllers: [BotOpenIdController], providers: [BotTokenMinter], exports: [BotTokenMinter] })
export class BotTokensModule {}
