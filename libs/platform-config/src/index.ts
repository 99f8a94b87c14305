export * from './platform-config';
export * from './platform-config.schema';
export * from './secret-source';
export * from './ai-services';
export * from './ai-services.schema';
export * from './channel-token-issuer';
