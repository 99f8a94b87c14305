export * from './rate-limit-store';
