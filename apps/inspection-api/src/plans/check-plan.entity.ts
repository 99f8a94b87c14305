import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { type OpenActionOn } from '../actions/action-transitions';

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
  /** Set by DELETE (the plan is archived, its records keep referring to it); null while in use. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
}

/** The plan ↔ device set (an archived device stays a member; lists show the devices in use). */
@Entity({ name: 'check_plan_devices' })
export class CheckPlanDeviceEntity {
  @PrimaryColumn({ name: 'plan_id', type: 'integer' }) planId: number;
  @PrimaryColumn({ name: 'device_id', type: 'integer' }) deviceId: number;
}
