export * from './bot-auth/bot-access-token-verifier';
export * from './bot-auth/calling-bot.decorator';
export * from './bot-tokens/bot-token-minter.service';
export * from './bots/bot-registry';
export * from './bots/registered-bot';
export * from './config/connector-gateway.environment';
export * from './connector-gateway.module';
export * from './start-connector-gateway';
