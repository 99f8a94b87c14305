export * from './parity';
export * from './process-environment';
export * from './security-probes';
export * from './redis-server';
export * from './wait-for';
export * from './identity-provider';
export * from './test-services';
