import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../common/drf-serializer';
import { CheckItemDto } from '../../items/dto/check-item.dto';

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
