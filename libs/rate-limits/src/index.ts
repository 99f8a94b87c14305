export * from './rate-limit-store';
export * from './rate-limit-store.module';
