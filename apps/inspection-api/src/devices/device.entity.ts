import { Entity } from 'typeorm';
import { applyEntityColumns } from '../drf/resource-schema';
import { DEVICE_SCHEMA } from './device.schema';

/** The `devices` row; its columns are declared from `DEVICE_SCHEMA`. */
@Entity({ name: 'devices' })
export class DeviceEntity {
  declare id: number;
  declare name: string;
  /** Unique among the devices that are not archived (a partial unique index). */
  declare code: string;
  declare location: string;
  declare group: string;
  declare createdAt: Date;
  /** Set by DELETE (the device is archived, its records stay); null while the device is in use. */
  declare archivedAt: Date | null;
}
applyEntityColumns(DeviceEntity, DEVICE_SCHEMA);
