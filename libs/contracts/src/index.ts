export * from './botframework/activity';
export * from './botframework/cards';
export * from './bus/activity-envelope';
export * from './botframework/activity-validation';
export * from './botframework/errors';
export * from './botframework/direct-line-session';
