export * from './create-redis-client';
export * from './is-redis-url';
export * from './redis-url';
export * from './cluster-slot';
