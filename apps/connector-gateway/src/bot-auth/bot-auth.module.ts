import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BotAccessTokenVerifier } from './bot-access-token-verifier';
import { BotBearerGuard } from './bot-bearer.guard';

/** Bearer authentication of bots calling the `/v3` API, installed as the fail-closed global guard. */
@Module({
  providers: [BotAccessTokenVerifier, BotBearerGuard, { provide: APP_GUARD, useClass: BotBearerGuard }],
  exports: [BotAccessTokenVerifier, BotBearerGuard],
})
export class BotAuthModule {}
