import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { type OpenActionOn } from '../actions/action-transitions';
import { type ScheduleUnit } from '../due/due-rules';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

@Entity({ name: 'check_plans' })
export class CheckPlanEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 10 }) frequency: Frequency;
  @Column({ type: 'boolean', default: true }) active: boolean;
  /** When a check record opens a corrective action by itself: `fail`, `warn` (a warning or a failure) or `never`. */
  @Column({ name: 'open_action_on', type: 'varchar', length: 5, default: 'fail' }) openActionOn: OpenActionOn;
  /** The schedule (`schedule` on the wire; rules in `src/due/due-rules.ts`): every N days, weeks, months or years. */
  @Column({ name: 'schedule_every', type: 'integer', default: 1 }) scheduleEvery: number;
  @Column({ name: 'schedule_unit', type: 'varchar', length: 5, default: 'day' }) scheduleUnit: ScheduleUnit;
  /** The first day of the first period (and the periods' phase); null: periods aligned on 2001-01-01. */
  @Column({ name: 'starts_on', type: 'date', nullable: true }) startsOn: string | null;
  /** The time of day the check is due by on the period's last day (`HH:MM:SS`); null: by the period's end. */
  @Column({ name: 'due_time', type: 'time', nullable: true }) dueTime: string | null;
  /** Set by DELETE (the plan is archived, its records keep referring to it); null while in use. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
}

/** The plan ↔ device set (an archived device stays a member; lists show the devices in use). */
@Entity({ name: 'check_plan_devices' })
export class CheckPlanDeviceEntity {
  @PrimaryColumn({ name: 'plan_id', type: 'integer' }) planId: number;
  @PrimaryColumn({ name: 'device_id', type: 'integer' }) deviceId: number;
}
