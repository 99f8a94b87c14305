import { Module } from '@nestjs/common';
import { BotTokensModule } from '../bot-tokens/bot-tokens.module';
import { BotDeliverer } from './bot-deliverer.service';
import { DeliveriesController } from './deliveries.controller';
import { InternalKeyGuard } from './internal-key.guard';
import { RefusedReplies } from './refused-replies';

/** Delivery of activities to bots, and the internal endpoint relay-gateway calls for it. */
@Module({
  imports: [BotTokensModule],
  controllers: [DeliveriesController],
  providers: [BotDeliverer, InternalKeyGuard, RefusedReplies],
  exports: [BotDeliverer, RefusedReplies],
})
export class DeliveryModule {}
