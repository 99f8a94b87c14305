import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'devices' })
export class DeviceEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  /** Unique among the devices that are not archived (a partial unique index). */
  @Column({ type: 'varchar', length: 100 }) code: string;
  @Column({ type: 'varchar', length: 200, default: '' }) location: string;
  @Column({ type: 'varchar', length: 100, default: '' }) group: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /** Set by DELETE (the device is archived, its records stay); null while the device is in use. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true }) archivedAt: Date | null;
}
