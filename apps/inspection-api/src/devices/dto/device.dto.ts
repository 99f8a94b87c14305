import { ApiProperty } from '@nestjs/swagger';
import { type CheckItemDto } from '../../items/dto/check-item.dto';
import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { DEVICE_SCHEMA } from '../device.schema';

/** A device as the API shows it (its OpenAPI properties are declared from `DEVICE_SCHEMA`). */
export class DeviceDto {
  declare id: number;
  declare check_items: CheckItemDto[];
  declare created_at: string;
  declare name: string;
  declare code: string;
  declare location: string;
  declare group: string;
  declare archived_at?: string;
}
applyOpenApiProperties(DeviceDto, DEVICE_SCHEMA, 'read');

/** What a client writes (read-only and unknown keys are ignored). */
export class DeviceInputDto {
  declare name: string;
  declare code: string;
  declare location?: string;
  declare group?: string;
}
applyOpenApiProperties(DeviceInputDto, DEVICE_SCHEMA, 'write');

export class DevicePageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [DeviceDto] }) results: DeviceDto[];
}

/** The device serializer's writable fields (validation). */
export const DEVICE_FIELDS = schemaFieldSpecs(DEVICE_SCHEMA);

/** The OPTIONS description of the device serializer: check items are a nested read-only list. */
export const DEVICE_INFO = schemaInfo(DEVICE_SCHEMA);
