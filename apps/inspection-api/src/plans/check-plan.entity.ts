import { Entity, PrimaryColumn } from 'typeorm';
import { type OpenActionOn } from '../actions/action-transitions';
import { type ScheduleUnit } from '../due/due-rules';
import { applyEntityColumns } from '../drf/resource-schema';
import { CHECK_PLAN_SCHEMA, type Frequency } from './check-plan.schema';

export { FREQUENCIES, type Frequency } from './check-plan.schema';

/** The `check_plans` row; its columns are declared from `CHECK_PLAN_SCHEMA`. */
@Entity({ name: 'check_plans' })
export class CheckPlanEntity {
  declare id: number;
  declare name: string;
  declare frequency: Frequency;
  declare active: boolean;
  /** When a check record opens a corrective action by itself: `fail`, `warn` (a warning or a failure) or `never`. */
  declare openActionOn: OpenActionOn;
  /** The schedule (`schedule` on the wire; rules in `src/due/due-rules.ts`): every N days, weeks, months or years. */
  declare scheduleEvery: number;
  declare scheduleUnit: ScheduleUnit;
  /** The first day of the first period (and the periods' phase); null: periods aligned on 2001-01-01. */
  declare startsOn: string | null;
  /** The time of day the check is due by on the period's last day (`HH:MM:SS`); null: by the period's end. */
  declare dueTime: string | null;
  /** Set by DELETE (the plan is archived, its records keep referring to it); null while in use. */
  declare archivedAt: Date | null;
}
applyEntityColumns(CheckPlanEntity, CHECK_PLAN_SCHEMA);

/** The plan ↔ device set (an archived device stays a member; lists show the devices in use). */
@Entity({ name: 'check_plan_devices' })
export class CheckPlanDeviceEntity {
  @PrimaryColumn({ name: 'plan_id', type: 'integer' }) planId: number;
  @PrimaryColumn({ name: 'device_id', type: 'integer' }) deviceId: number;
}
