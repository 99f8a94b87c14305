export * from './local-stack';
export * from './faults/history-checker';
