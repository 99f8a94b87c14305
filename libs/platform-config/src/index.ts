export * from './platform-config';
export * from './platform-config.schema';
export * from './secret-source';
