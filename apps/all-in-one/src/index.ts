export * from './all-in-one.environment';
export * from './in-process-platform';
export * from './separate-processes-platform';
export * from './inspection-bot-launch';
export * from './console-launch';
export * from './app-selection';
