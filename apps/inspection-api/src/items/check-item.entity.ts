import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { type ItemType } from './item-type';

@Entity({ name: 'check_items' })
export class CheckItemEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ name: 'expected_value', type: 'varchar', length: 200, default: '' }) expectedValue: string;
  @Column({ name: 'device_id', type: 'integer' }) deviceId: number;
  /** What the value is (`item-type.ts`): text (default), number (min, max, unit), yes_no, choice (options). */
  @Column({ type: 'varchar', length: 6, default: 'text' }) type: ItemType;
  @Column({ type: 'varchar', length: 20, default: '' }) unit: string;
  @Column({ type: 'double precision', nullable: true }) min: number | null;
  @Column({ type: 'double precision', nullable: true }) max: number | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) options: string[];
  /** Set by DELETE of the item, or with its device's archiving (the same instant); null while in use. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
}
