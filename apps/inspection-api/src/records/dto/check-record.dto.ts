import { ApiProperty } from '@nestjs/swagger';
import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { CHECK_RECORD_SCHEMA } from '../check-record.schema';

/** A check record as the API shows it (its OpenAPI properties are declared from `CHECK_RECORD_SCHEMA`). */
export class CheckRecordDto {
  declare id: number;
  declare status: string;
  declare value: string;
  declare note: string;
  declare photo: string | null;
  declare attachment: string | null;
  declare checked_at: string;
  declare checked_by: string;
  declare plan: number | null;
  declare device: number;
  declare item: number | null;
  declare source?: string;
  declare out_of_range: boolean;
}
applyOpenApiProperties(CheckRecordDto, CHECK_RECORD_SCHEMA, 'read');

/** What a client writes as JSON (read-only and unknown keys are ignored). */
export class CheckRecordInputDto {
  declare status: string;
  declare value?: string;
  declare note?: string;
  declare checked_by?: string;
  declare plan?: number | null;
  declare device: number;
  declare item?: number | null;
  declare source?: string;
  declare if_unanswered_since?: string;
}
applyOpenApiProperties(CheckRecordInputDto, CHECK_RECORD_SCHEMA, 'write');

/** The multipart/form-data form of a record write: the fields as form fields plus the two file parts. */
export class CheckRecordMultipartDto {
  declare status: string;
  declare value?: string;
  declare note?: string;
  declare checked_by?: string;
  declare plan?: number;
  declare device: number;
  declare item?: number;
  declare source?: string;
  declare if_unanswered_since?: string;
  declare photo?: unknown;
  declare attachment?: unknown;
}
applyOpenApiProperties(CheckRecordMultipartDto, CHECK_RECORD_SCHEMA, 'multipart');

export class CheckRecordPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [CheckRecordDto] }) results: CheckRecordDto[];
}

/** The check-record serializer's fields the DRF field table validates (the files: `records.service.ts`). */
export const CHECK_RECORD_FIELDS = schemaFieldSpecs(CHECK_RECORD_SCHEMA);

/** The OPTIONS description of the check-record serializer: photo and attachment are model file fields. */
export const CHECK_RECORD_INFO = schemaInfo(CHECK_RECORD_SCHEMA);
