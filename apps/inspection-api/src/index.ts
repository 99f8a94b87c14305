export * from './config/inspection-api.environment';
export * from './database/inspection-data-source';
export * from './inspection-api.module';
export * from './start-inspection-api';
export * from './users/users.service';
export * from './actions/action-transitions';
export * from './mail/mail-sender';
export { AUDIT_EVENTS, AUDIT_RESOURCES } from './audit/audit-resources';
export { EVENT_TYPES } from './events/event-types';
