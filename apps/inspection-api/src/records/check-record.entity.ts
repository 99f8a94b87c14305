import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const STATUSES = ['ok', 'warn', 'fail'] as const;
export type RecordStatus = (typeof STATUSES)[number];
/** How a record was made: the chat, the chat opened from a scanned device label (presence shown), or the API. */
export const SOURCES = ['chat', 'qr', 'api'] as const;

@Entity({ name: 'check_records' })
export class CheckRecordEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 4 }) status: RecordStatus;
  @Column({ type: 'varchar', length: 200, default: '' }) value: string;
  @Column({ type: 'text', default: '' }) note: string;
  /** Storage key of the photo (`photos/<random>.<ext>`), null when none. */
  @Column({ type: 'varchar', length: 255, nullable: true }) photo: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) attachment: string | null;
  @CreateDateColumn({ name: 'checked_at', type: 'timestamptz' }) checkedAt: Date;
  @Column({ name: 'checked_by', type: 'varchar', length: 150, default: '' }) checkedBy: string;
  /** Plans are archived, never deleted: the reference stays. */
  @Column({ name: 'plan_id', type: 'integer', nullable: true }) planId: number | null;
  /** Devices are archived, never deleted: the reference stays (ON DELETE RESTRICT). */
  @Column({ name: 'device_id', type: 'integer' }) deviceId: number;
  /** Items are archived, never deleted: the reference stays. */
  @Column({ name: 'item_id', type: 'integer', nullable: true }) itemId: number | null;
  @Column({ type: 'varchar', length: 4, default: 'api' }) source: string;
  /** The value was outside its item's definition when written (`src/items/item-type.ts`); read-only. */
  @Column({ name: 'out_of_range', type: 'boolean', default: false }) outOfRange: boolean;
}
