import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'check_items' })
export class CheckItemEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ name: 'expected_value', type: 'varchar', length: 200, default: '' }) expectedValue: string;
  @Column({ name: 'device_id', type: 'integer' }) deviceId: number;
  /** Set by DELETE of the item, or with its device's archiving (the same instant); null while in use. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
}
