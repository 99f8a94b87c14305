export * from './config/relay-gateway.environment';
export * from './conversation-log/conversation-log.service';
export * from './delivery/bot-delivery';
export * from './delivery/http-bot-delivery';
export * from './relay-gateway.module';
export * from './start-relay-gateway';
export * from './stream/stream.service';
