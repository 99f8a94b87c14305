export * from './ai-credential-provider';
export * from './clock';
export * from './translator-client';
