import { Entity } from 'typeorm';
import { applyEntityColumns } from '../drf/resource-schema';
import { CHECK_RECORD_SCHEMA, type RecordStatus } from './check-record.schema';

export { SOURCES, STATUSES, type RecordStatus } from './check-record.schema';

/** The `check_records` row; its columns are declared from `CHECK_RECORD_SCHEMA`. */
@Entity({ name: 'check_records' })
export class CheckRecordEntity {
  declare id: number;
  declare status: RecordStatus;
  declare value: string;
  declare note: string;
  /** Storage key of the photo (`photos/<random>.<ext>`), null when none. */
  declare photo: string | null;
  declare attachment: string | null;
  declare checkedAt: Date;
  declare checkedBy: string;
  /** Plans are archived, never deleted: the reference stays. */
  declare planId: number | null;
  /** Devices are archived, never deleted: the reference stays (ON DELETE RESTRICT). */
  declare deviceId: number;
  /** Items are archived, never deleted: the reference stays. */
  declare itemId: number | null;
  declare source: string;
  /** The value was outside its item's definition when written (`src/items/item-type.ts`); read-only. */
  declare outOfRange: boolean;
}
applyEntityColumns(CheckRecordEntity, CHECK_RECORD_SCHEMA);
