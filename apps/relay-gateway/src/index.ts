export * from './config/relay-gateway.environment';
export * from './delivery/bot-delivery';
export * from './delivery/http-bot-delivery';
export * from './relay-gateway.module';
export * from './start-relay-gateway';
export * from './stream/stream.service';
// The conversation log is the shared lib's; re-exported for the tests and the bench that play the bot through it.
export { ConversationLog } from '@fieldops/conversation-store';
