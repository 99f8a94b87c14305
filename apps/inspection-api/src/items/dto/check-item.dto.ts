import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, serializerInfo } from '../../drf/metadata';

export class CheckItemDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiPropertyOptional({ default: '' }) description: string;
  @ApiPropertyOptional({ maxLength: 200, default: '' }) expected_value: string;
  @ApiProperty({ description: 'Id of a Device (deleting the device deletes the item).' }) device: number;
}

export class CheckItemInputDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ maxLength: 200 }) expected_value?: string;
  @ApiProperty({ description: 'Id of a Device.' }) device: number;
}

export const CHECK_ITEM_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
  { kind: 'char', name: 'description', required: false, allowBlank: true },
  { kind: 'char', name: 'expected_value', required: false, allowBlank: true, maxLength: 200 },
  { kind: 'pk', name: 'device', required: true, nullable: false, table: 'devices' },
];

/** The OPTIONS description of the check-item serializer (DRF SimpleMetadata). */
export const CHECK_ITEM_INFO = serializerInfo(CHECK_ITEM_FIELDS, [
  ID_FIELD,
  'name',
  'description',
  'expected_value',
  'device',
]);
