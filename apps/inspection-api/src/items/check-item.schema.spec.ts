import 'reflect-metadata';
import { getMetadataArgsStorage } from 'typeorm';
import { CHECK_ITEM_JSON, CHECK_ITEM_TEXT } from './check-item-json';
import { CheckItemEntity } from './check-item.entity';
import { CHECK_ITEM_FIELDS, CHECK_ITEM_INFO } from './dto/check-item.dto';
import { ITEM_TYPES } from './item-type';

/** What derives from CHECK_ITEM_SCHEMA is what the items resource declared by hand before (same wire, SQL, table). */
describe('CHECK_ITEM_SCHEMA', () => {
  it('gives the DRF field table of the fields it validates (min, max and options are item-type.ts)', () => {
    expect(CHECK_ITEM_FIELDS).toEqual([
      { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
      { kind: 'char', name: 'description', required: false, allowBlank: true },
      { kind: 'char', name: 'expected_value', required: false, allowBlank: true, maxLength: 200 },
      { kind: 'pk', name: 'device', required: true, nullable: false, table: 'devices' },
      { kind: 'choice', name: 'type', required: false, choices: ITEM_TYPES },
      { kind: 'char', name: 'unit', required: false, allowBlank: true, maxLength: 20 },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order, min/max/options as they are described", () => {
    const writable = (label: string, type: string, extra: object = {}) => ({
      type,
      required: false,
      read_only: false,
      label,
      ...extra,
    });
    expect(JSON.stringify(CHECK_ITEM_INFO)).toBe(
      JSON.stringify({
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        name: { type: 'string', required: true, read_only: false, label: 'Name', max_length: 200 },
        description: writable('Description', 'string'),
        expected_value: writable('Expected value', 'string', { max_length: 200 }),
        device: { type: 'field', required: true, read_only: false, label: 'Device' },
        type: writable('Type', 'choice', {
          choices: [
            { value: 'text', display_name: 'Text' },
            { value: 'number', display_name: 'Number' },
            { value: 'yes_no', display_name: 'Yes No' },
            { value: 'choice', display_name: 'Choice' },
          ],
        }),
        unit: writable('Unit', 'string', { max_length: 20 }),
        min: writable('Min', 'float'),
        max: writable('Max', 'float'),
        options: writable('Options', 'list', {
          child: { type: 'string', required: true, read_only: false, max_length: 100 },
        }),
      }),
    );
  });

  it("declares the entity's columns as the migrations made them", () => {
    const storage = getMetadataArgsStorage();
    const columns = storage.columns
      .filter((column) => column.target === CheckItemEntity)
      .map((column) => ({ property: column.propertyName, mode: column.mode, ...column.options }));
    expect(columns).toEqual([
      { property: 'id', mode: 'regular', type: Number, primary: true },
      { property: 'name', mode: 'regular', type: 'varchar', length: 200 },
      { property: 'description', mode: 'regular', type: 'text', default: '' },
      {
        property: 'expectedValue',
        mode: 'regular',
        name: 'expected_value',
        type: 'varchar',
        length: 200,
        default: '',
      },
      { property: 'deviceId', mode: 'regular', name: 'device_id', type: 'integer' },
      { property: 'type', mode: 'regular', type: 'varchar', length: 6, default: 'text' },
      { property: 'unit', mode: 'regular', type: 'varchar', length: 20, default: '' },
      { property: 'min', mode: 'regular', type: 'double precision', nullable: true },
      { property: 'max', mode: 'regular', type: 'double precision', nullable: true },
      { property: 'options', mode: 'regular', type: 'text', array: true, default: expect.any(Function) },
      { property: 'archivedAt', mode: 'regular', name: 'archived_at', type: 'timestamptz', nullable: true },
    ]);
  });

  it('renders the representation with the same SQL as before (as a json value and as JSON text)', () => {
    expect(CHECK_ITEM_JSON).toBe(
      `json_build_object('id', i."id", 'name', i."name", 'description', i."description", 'expected_value', i."expected_value", 'device', i."device_id", 'type', i."type", 'unit', i."unit", 'min', i."min", 'max', i."max", 'options', to_json(i."options"))`,
    );
    const jsonText = (column: string): string => `to_json(${column})::text`;
    expect(CHECK_ITEM_TEXT).toBe(
      `'{"id":' || ci."id" || ',"name":' || ${jsonText('ci."name"')} || ',"description":' || ${jsonText('ci."description"')} || ',"expected_value":' || ${jsonText('ci."expected_value"')} || ',"device":' || ci."device_id" || ',"type":' || ${jsonText('ci."type"')} || ',"unit":' || ${jsonText('ci."unit"')} || ',"min":' || COALESCE(${jsonText('ci."min"')}, 'null') || ',"max":' || COALESCE(${jsonText('ci."max"')}, 'null') || ',"options":' || ${jsonText('ci."options"')} || '}'`,
    );
  });
});
