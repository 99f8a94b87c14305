import { Entity } from 'typeorm';
import { applyEntityColumns } from '../drf/resource-schema';
import { CHECK_ITEM_SCHEMA } from './check-item.schema';
import { type ItemType } from './item-type';

/** The `check_items` row; its columns are declared from `CHECK_ITEM_SCHEMA`. */
@Entity({ name: 'check_items' })
export class CheckItemEntity {
  declare id: number;
  declare name: string;
  declare description: string;
  declare expectedValue: string;
  declare deviceId: number;
  /** What the value is (`item-type.ts`): text (default), number (min, max, unit), yes_no, choice (options). */
  declare type: ItemType;
  declare unit: string;
  declare min: number | null;
  declare max: number | null;
  declare options: string[];
  /** Set by DELETE of the item, or with its device's archiving (the same instant); null while in use. */
  declare archivedAt: Date | null;
}
applyEntityColumns(CheckItemEntity, CHECK_ITEM_SCHEMA);
