export * from './config/connector-gateway.environment';
export * from './connector-gateway.module';
export * from './start-connector-gateway';
