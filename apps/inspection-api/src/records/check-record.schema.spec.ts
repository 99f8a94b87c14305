import 'reflect-metadata';
import { getMetadataArgsStorage } from 'typeorm';
import { isoTimestamp } from '../database/sql';
import { fileFieldInfo } from '../drf/metadata';
import { CheckRecordEntity, SOURCES, STATUSES } from './check-record.entity';
import { CHECK_RECORD_FIELDS, CHECK_RECORD_INFO } from './dto/check-record.dto';
import { RECORD_JSON } from './records.service';

/** What derives from CHECK_RECORD_SCHEMA is what the records resource declared by hand before (same wire, SQL, table). */
describe('CHECK_RECORD_SCHEMA', () => {
  it('gives the DRF field table of the fields it validates (not the files, not if_unanswered_since)', () => {
    expect(CHECK_RECORD_FIELDS).toEqual([
      { kind: 'choice', name: 'status', required: true, choices: STATUSES },
      { kind: 'char', name: 'value', required: false, allowBlank: true, maxLength: 200 },
      { kind: 'char', name: 'note', required: false, allowBlank: true },
      { kind: 'char', name: 'checked_by', required: false, allowBlank: true, maxLength: 150 },
      { kind: 'pk', name: 'plan', required: false, nullable: true, table: 'check_plans' },
      { kind: 'pk', name: 'device', required: true, nullable: false, table: 'devices' },
      { kind: 'pk', name: 'item', required: false, nullable: true, table: 'check_items' },
      { kind: 'choice', name: 'source', required: false, choices: SOURCES },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order, the files as model file fields", () => {
    const choices = (values: readonly string[]) =>
      values.map((value) => ({ value, display_name: value.charAt(0).toUpperCase() + value.slice(1) }));
    const field = (label: string, type: string, required = false, extra: object = {}) => ({
      type,
      required,
      read_only: false,
      label,
      ...extra,
    });
    expect(JSON.stringify(CHECK_RECORD_INFO)).toBe(
      JSON.stringify({
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        status: field('Status', 'choice', true, { choices: choices(STATUSES) }),
        value: field('Value', 'string', false, { max_length: 200 }),
        note: field('Note', 'string'),
        photo: fileFieldInfo('photo', 'image upload'),
        attachment: fileFieldInfo('attachment', 'file upload'),
        checked_at: { type: 'datetime', required: false, read_only: true, label: 'Checked at' },
        checked_by: field('Checked by', 'string', false, { max_length: 150 }),
        plan: field('Plan', 'field'),
        device: field('Device', 'field', true),
        item: field('Item', 'field'),
        source: field('Source', 'choice', false, { choices: choices(SOURCES) }),
        out_of_range: { type: 'boolean', required: false, read_only: true, label: 'Out of range' },
      }),
    );
  });

  it("declares the entity's columns as the migrations made them", () => {
    const columns = getMetadataArgsStorage()
      .columns.filter((column) => column.target === CheckRecordEntity)
      .map((column) => ({ property: column.propertyName, mode: column.mode, ...column.options }));
    expect(columns).toEqual([
      { property: 'id', mode: 'regular', type: Number, primary: true },
      { property: 'status', mode: 'regular', type: 'varchar', length: 4 },
      { property: 'value', mode: 'regular', type: 'varchar', length: 200, default: '' },
      { property: 'note', mode: 'regular', type: 'text', default: '' },
      { property: 'photo', mode: 'regular', type: 'varchar', length: 255, nullable: true },
      { property: 'attachment', mode: 'regular', type: 'varchar', length: 255, nullable: true },
      { property: 'checkedAt', mode: 'createDate', name: 'checked_at', type: 'timestamptz' },
      {
        property: 'checkedBy',
        mode: 'regular',
        name: 'checked_by',
        type: 'varchar',
        length: 150,
        default: '',
      },
      { property: 'planId', mode: 'regular', name: 'plan_id', type: 'integer', nullable: true },
      { property: 'deviceId', mode: 'regular', name: 'device_id', type: 'integer' },
      { property: 'itemId', mode: 'regular', name: 'item_id', type: 'integer', nullable: true },
      { property: 'source', mode: 'regular', type: 'varchar', length: 4, default: 'api' },
      { property: 'outOfRange', mode: 'regular', name: 'out_of_range', type: 'boolean', default: false },
    ]);
  });

  it('renders the representation with the same SQL as before', () => {
    expect(RECORD_JSON).toBe(
      `json_build_object('id', r."id", 'status', r."status", 'value', r."value", 'note', r."note", 'photo', CASE WHEN r."photo" IS NULL THEN NULL ELSE $1::text || r."photo" END, 'attachment', CASE WHEN r."attachment" IS NULL THEN NULL ELSE $1::text || r."attachment" END, 'checked_at', ${isoTimestamp('r."checked_at"')}, 'checked_by', r."checked_by", 'plan', r."plan_id", 'device', r."device_id", 'item', r."item_id", 'source', r."source", 'out_of_range', r."out_of_range")`,
    );
  });
});
