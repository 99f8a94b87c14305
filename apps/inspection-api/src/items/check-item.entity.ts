import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'check_items' })
export class CheckItemEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ name: 'expected_value', type: 'varchar', length: 200, default: '' }) expectedValue: string;
  /** ON DELETE CASCADE (see the migration). */
  @Column({ name: 'device_id', type: 'integer' }) deviceId: number;
}
