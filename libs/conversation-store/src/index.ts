export * from './conversation-store';
export * from './conversation-store.module';
export * from './create-conversation-store';
export * from './in-process-conversation-store';
export * from './redis-conversation-store';
export * from './conversation-state.environment';
