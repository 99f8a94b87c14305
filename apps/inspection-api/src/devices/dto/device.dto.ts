import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { CHECK_ITEM_INFO, CheckItemDto } from '../../items/dto/check-item.dto';

/** A device as the API shows it. */
export class DeviceDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ type: [CheckItemDto], readOnly: true, description: "The device's check items, by id." })
  check_items: CheckItemDto[];
  @ApiProperty({ format: 'date-time', readOnly: true }) created_at: string;
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Unique among devices.' }) code: string;
  @ApiPropertyOptional({ maxLength: 200, default: '' }) location: string;
  @ApiPropertyOptional({ maxLength: 100, default: '' }) group: string;
  @ApiPropertyOptional({
    format: 'date-time',
    readOnly: true,
    description: 'When the device was deleted (archived): only in the `?archived=true` list.',
  })
  archived_at?: string;
}

/** What a client writes (read-only and unknown keys are ignored). */
export class DeviceInputDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Unique among devices.' }) code: string;
  @ApiPropertyOptional({ maxLength: 200 }) location?: string;
  @ApiPropertyOptional({ maxLength: 100 }) group?: string;
}

export class DevicePageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [DeviceDto] }) results: DeviceDto[];
}

export const DEVICE_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
  { kind: 'char', name: 'code', required: true, allowBlank: false, maxLength: 100 },
  { kind: 'char', name: 'location', required: false, allowBlank: true, maxLength: 200 },
  { kind: 'char', name: 'group', required: false, allowBlank: true, maxLength: 100 },
];

/** The OPTIONS description of the device serializer: check items are a nested read-only list. */
export const DEVICE_INFO = serializerInfo(DEVICE_FIELDS, [
  ID_FIELD,
  [
    'check_items',
    readOnlyFieldInfo('check_items', 'field', {
      child: { type: 'nested object', required: false, read_only: true, children: CHECK_ITEM_INFO },
    }),
  ],
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
  'name',
  'code',
  'location',
  'group',
]);
