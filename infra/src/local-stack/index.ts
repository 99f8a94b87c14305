export * from './app-process';
export * from './echo-bot';
export * from './local-stack';
export * from './nginx-process';
export * from './ports';
export * from './process-memory';
export * from './redis-server-process';
export * from './redis-topologies';
