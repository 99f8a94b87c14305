export * from './config/relay-gateway.environment';
export * from './relay-gateway.module';
export * from './start-relay-gateway';
