import 'reflect-metadata';
import { getMetadataArgsStorage } from 'typeorm';
import { CHECK_ITEM_INFO } from '../items/dto/check-item.dto';
import { schemaJsonText } from '../drf/resource-schema';
import { DEVICE_SCHEMA } from './device.schema';
import { DeviceEntity } from './device.entity';
import { DEVICE_FIELDS, DEVICE_INFO } from './dto/device.dto';

/** What derives from DEVICE_SCHEMA is what the devices resource declared by hand before (same wire, same table). */
describe('DEVICE_SCHEMA', () => {
  it('gives the DRF field table of the writable fields', () => {
    expect(DEVICE_FIELDS).toEqual([
      { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
      { kind: 'char', name: 'code', required: true, allowBlank: false, maxLength: 100 },
      { kind: 'char', name: 'location', required: false, allowBlank: true, maxLength: 200 },
      { kind: 'char', name: 'group', required: false, allowBlank: true, maxLength: 100 },
    ]);
  });

  it("gives the OPTIONS description, in the representation's order, archived_at left out", () => {
    const expected: unknown = {
      id: {
        type: 'integer',
        required: false,
        read_only: true,
        label: 'ID',
      },
      check_items: {
        type: 'field',
        required: false,
        read_only: true,
        label: 'Check items',
        child: {
          type: 'nested object',
          required: false,
          read_only: true,
          children: CHECK_ITEM_INFO,
        },
      },
      created_at: {
        type: 'datetime',
        required: false,
        read_only: true,
        label: 'Created at',
      },
      name: {
        type: 'string',
        required: true,
        read_only: false,
        label: 'Name',
        max_length: 200,
      },
      code: {
        type: 'string',
        required: true,
        read_only: false,
        label: 'Code',
        max_length: 100,
      },
      location: {
        type: 'string',
        required: false,
        read_only: false,
        label: 'Location',
        max_length: 200,
      },
      group: {
        type: 'string',
        required: false,
        read_only: false,
        label: 'Group',
        max_length: 100,
      },
    };
    expect(JSON.stringify(DEVICE_INFO)).toBe(JSON.stringify(expected));
  });

  it("declares the entity's columns as the migrations made them", () => {
    const storage = getMetadataArgsStorage();
    const columns = storage.columns
      .filter((column) => column.target === DeviceEntity)
      .map((column) => ({ property: column.propertyName, mode: column.mode, ...column.options }));
    expect(columns).toEqual([
      { property: 'id', mode: 'regular', type: Number, primary: true },
      { property: 'createdAt', mode: 'createDate', name: 'created_at', type: 'timestamptz' },
      { property: 'name', mode: 'regular', type: 'varchar', length: 200 },
      { property: 'code', mode: 'regular', type: 'varchar', length: 100 },
      { property: 'location', mode: 'regular', type: 'varchar', length: 200, default: '' },
      { property: 'group', mode: 'regular', type: 'varchar', length: 100, default: '' },
      { property: 'archivedAt', mode: 'regular', name: 'archived_at', type: 'timestamptz', nullable: true },
    ]);
    expect(storage.generations.filter((generation) => generation.target === DeviceEntity)).toEqual([
      { target: DeviceEntity, propertyName: 'id', strategy: 'increment' },
    ]);
    expect(storage.tables.find((table) => table.target === DeviceEntity)?.name).toBe('devices');
  });

  it('renders the JSON keys in order, archived_at only for archived devices', () => {
    const keys = (sql: string) => [...sql.matchAll(/"(\w+)":/g)].map((match) => match[1]);
    const inUse = schemaJsonText(DEVICE_SCHEMA, 'd');
    const own = (sql: string) => keys(sql.replace(/COALESCE\(\(SELECT .*?, '\[\]'\)/, ''));
    expect(own(inUse)).toEqual(['id', 'check_items', 'created_at', 'name', 'code', 'location', 'group']);
    expect(own(schemaJsonText(DEVICE_SCHEMA, 'd', 'archived'))).toEqual([
      'id',
      'check_items',
      'created_at',
      'name',
      'code',
      'location',
      'group',
      'archived_at',
    ]);
    expect(inUse).toContain('ci."archived_at" IS NULL');
    expect(schemaJsonText(DEVICE_SCHEMA, 'd', 'archived')).toContain('ci."archived_at" = d."archived_at"');
    expect(inUse).toMatch(/^'\{"id":' \|\| d\."id" \|\| ',"check_items":' \|\| COALESCE/);
    expect(inUse).toMatch(/\|\| ',"group":' \|\| to_json\(d\."group"\)::text \|\| '\}'$/);
  });
});
