import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { type FieldInfo, ID_FIELD, serializerInfo } from '../../drf/metadata';
import { ITEM_TYPES, MAX_OPTION_LENGTH, MAX_OPTIONS } from '../item-type';

const TYPE_DESCRIPTION =
  'What the value is: "text" (default, free text), "number" (with min, max and unit; a value outside them is flagged out_of_range on the record), "yes_no", or "choice" (one of options).';

export class CheckItemDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiPropertyOptional({ default: '' }) description: string;
  @ApiPropertyOptional({ maxLength: 200, default: '' }) expected_value: string;
  @ApiProperty({ description: 'Id of a Device (deleting the device deletes the item).' }) device: number;
  @ApiPropertyOptional({ enum: ITEM_TYPES, default: 'text', description: TYPE_DESCRIPTION }) type: string;
  @ApiPropertyOptional({ maxLength: 20, default: '', description: 'Unit of a number item (e.g. "bar").' })
  unit: string;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Lowest value in range (number items).' })
  min: number | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Highest value in range (number items).',
  })
  max: number | null;
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_OPTIONS,
    description: 'The answers a choice item offers (required for "choice", empty otherwise).',
  })
  options: string[];
}

export class CheckItemInputDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ maxLength: 200 }) expected_value?: string;
  @ApiProperty({ description: 'Id of a Device.' }) device: number;
  @ApiPropertyOptional({ enum: ITEM_TYPES, default: 'text', description: TYPE_DESCRIPTION }) type?: string;
  @ApiPropertyOptional({ maxLength: 20 }) unit?: string;
  @ApiPropertyOptional({ type: Number, nullable: true }) min?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) max?: number | null;
  @ApiPropertyOptional({ type: [String], maxItems: MAX_OPTIONS }) options?: string[];
}

export const CHECK_ITEM_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
  { kind: 'char', name: 'description', required: false, allowBlank: true },
  { kind: 'char', name: 'expected_value', required: false, allowBlank: true, maxLength: 200 },
  { kind: 'pk', name: 'device', required: true, nullable: false, table: 'devices' },
  { kind: 'choice', name: 'type', required: false, choices: ITEM_TYPES },
  { kind: 'char', name: 'unit', required: false, allowBlank: true, maxLength: 20 },
];

const limitInfo = (label: string): FieldInfo => ({ type: 'float', required: false, read_only: false, label });

/** The OPTIONS description of the check-item serializer (DRF SimpleMetadata). */
export const CHECK_ITEM_INFO = serializerInfo(CHECK_ITEM_FIELDS, [
  ID_FIELD,
  'name',
  'description',
  'expected_value',
  'device',
  'type',
  'unit',
  ['min', limitInfo('Min')],
  ['max', limitInfo('Max')],
  [
    'options',
    {
      type: 'list',
      required: false,
      read_only: false,
      label: 'Options',
      child: { type: 'string', required: true, read_only: false, max_length: MAX_OPTION_LENGTH },
    },
  ],
]);
