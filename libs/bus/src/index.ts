export * from './activity-bus';
export * from './activity-bus-logger';
export * from './activity-bus.module';
export * from './activity-envelope-codec';
export * from './create-activity-bus';
export * from './deep-freeze';
export { type HandlerErrorReporter } from './handler-dispatch';
export * from './in-process-activity-bus';
export * from './redis-activity-bus';
