import { buildPostgresDataSourceOptions, type DatabaseLogger } from '@fieldops/database';
import { type DataSourceOptions } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';
import { CheckItemEntity } from '../items/check-item.entity';
import { CheckPlanDeviceEntity, CheckPlanEntity } from '../plans/check-plan.entity';
import { CheckRecordEntity } from '../records/check-record.entity';
import { UserEntity } from '../users/user.entity';
import { CreateUsers1732240000000 } from './migrations/1732240000000-create-users';
import { CreateInspectionTables1732300000000 } from './migrations/1732300000000-create-inspection-tables';
import { AddUserRoles1732400000000 } from './migrations/1732400000000-add-user-roles';
import { IndexRecordsByTime1732500000000 } from './migrations/1732500000000-index-records-by-time';
import { CreateRateLimits1732600000000 } from './migrations/1732600000000-create-rate-limits';
import { CoverRecordsByTime1732710000000 } from './migrations/1732710000000-cover-records-by-time';
import { CreateIdempotencyKeys1732800000000 } from './migrations/1732800000000-create-idempotency-keys';
import { AddRecordSource1732810000000 } from './migrations/1732810000000-add-record-source';
import { ArchiveInventory1732900000000 } from './migrations/1732900000000-archive-inventory';
import { CreateActions1732910000000 } from './migrations/1732910000000-create-actions';
import { AddTokenRevocation1732921000000 } from './migrations/1732921000000-add-token-revocation';
import { CreateAuditTrail1732922000000 } from './migrations/1732922000000-create-audit-trail';
import { CreateEvents1732923000000 } from './migrations/1732923000000-create-events';
import { CreateWebhooks1732923100000 } from './migrations/1732923100000-create-webhooks';
import { AddPlanSchedules1732924000000 } from './migrations/1732924000000-add-plan-schedules';
import { AddTypedCheckItems1732924100000 } from './migrations/1732924100000-add-typed-check-items';
import { AddPlanAssignees1732924200000 } from './migrations/1732924200000-add-plan-assignees';
import { CreateEventNotices1732925000000 } from './migrations/1732925000000-create-event-notices';
import { CreateNotificationPreferences1732925100000 } from './migrations/1732925100000-create-notification-preferences';
import { TallyAuditEntries1732929000000 } from './migrations/1732929000000-tally-audit-entries';
import { IndexActionLoad1732929100000 } from './migrations/1732929100000-index-action-load';
import { CreateNotifications1732929300000 } from './migrations/1732929300000-create-notifications';
import { CreateReports1732929600000 } from './migrations/1732929600000-create-reports';
import { AddOidcSignIn1732929800000 } from './migrations/1732929800000-add-oidc-sign-in';
import { AddChatNotifications1732931000000 } from './migrations/1732931000000-add-chat-notifications';
import { CreateReportSubscriptions1732932200000 } from './migrations/1732932200000-create-report-subscriptions';
import { CreateTeams1732932400000 } from './migrations/1732932400000-create-teams';
import { AddPlanTeams1733000000000 } from './migrations/1733000000000-add-plan-teams';

/** Every migration, in order. New ones are appended here (and never edited once released). */
export const INSPECTION_MIGRATIONS = [
  CreateUsers1732240000000,
  CreateInspectionTables1732300000000,
  AddUserRoles1732400000000,
  IndexRecordsByTime1732500000000,
  CreateRateLimits1732600000000,
  CoverRecordsByTime1732710000000,
  CreateIdempotencyKeys1732800000000,
  AddRecordSource1732810000000,
  ArchiveInventory1732900000000,
  CreateActions1732910000000,
  AddTokenRevocation1732921000000,
  CreateAuditTrail1732922000000,
  CreateEvents1732923000000,
  CreateWebhooks1732923100000,
  AddPlanSchedules1732924000000,
  AddTypedCheckItems1732924100000,
  AddPlanAssignees1732924200000,
  CreateEventNotices1732925000000,
  CreateNotificationPreferences1732925100000,
  TallyAuditEntries1732929000000,
  IndexActionLoad1732929100000,
  CreateNotifications1732929300000,
  CreateReports1732929600000,
  AddOidcSignIn1732929800000,
  AddChatNotifications1732931000000,
  CreateReportSubscriptions1732932200000,
  CreateTeams1732932400000,
  AddPlanTeams1733000000000,
];

/** Every entity of the service. */
export const INSPECTION_ENTITIES = [
  UserEntity,
  DeviceEntity,
  CheckItemEntity,
  CheckPlanEntity,
  CheckPlanDeviceEntity,
  CheckRecordEntity,
];

/** The one DataSource definition: used by the app and by the migration command alike. */
export function inspectionDataSourceOptions(
  url: string,
  poolSize: number,
  logger?: DatabaseLogger,
): DataSourceOptions {
  return buildPostgresDataSourceOptions({
    url,
    entities: INSPECTION_ENTITIES,
    migrations: INSPECTION_MIGRATIONS,
    poolSize,
    applicationName: 'inspection-api',
    logger,
    // No JIT compilation: the due checks' statements cost enough for PostgreSQL to JIT-compile them on every
    // execution (about 0.2 s each, several times their run time); an API's short statements never gain from it.
    serverOptions: '-c jit=off',
  });
}
