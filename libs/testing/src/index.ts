export * from './parity';
export * from './security-probes';
