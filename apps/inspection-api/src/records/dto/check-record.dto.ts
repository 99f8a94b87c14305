import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { fileFieldInfo, ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { SOURCES, STATUSES } from '../check-record.entity';

export class CheckRecordDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ enum: STATUSES }) status: string;
  @ApiPropertyOptional({ maxLength: 200, default: '' }) value: string;
  @ApiPropertyOptional({ default: '' }) note: string;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    readOnly: true,
    description: 'Absolute URL of the photo under /media/photos/; set through multipart/form-data.',
  })
  photo: string | null;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    readOnly: true,
    description: 'Absolute URL of the attachment under /media/attachments/; set through multipart/form-data.',
  })
  attachment: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) checked_at: string;
  @ApiPropertyOptional({ maxLength: 150, default: '' }) checked_by: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Id of a CheckPlan; null once the plan is deleted.',
  })
  plan: number | null;
  @ApiProperty({ description: 'Id of a Device (deleting the device deletes its records).' }) device: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Id of a CheckItem; null once the item is deleted.',
  })
  item: number | null;
  @ApiPropertyOptional({
    enum: SOURCES,
    default: 'api',
    description:
      'How the record was made: "chat", "qr" (the chat opened from a scanned device label), "api".',
  })
  source?: string;
  @ApiProperty({
    readOnly: true,
    description:
      "True when the value was outside its item's definition when written: a number item's value below min, above max or not a number, a choice item's value not among its options.",
  })
  out_of_range: boolean;
}

export class CheckRecordInputDto {
  @ApiProperty({ enum: STATUSES }) status: string;
  @ApiPropertyOptional({ maxLength: 200 }) value?: string;
  @ApiPropertyOptional() note?: string;
  @ApiPropertyOptional({ maxLength: 150 }) checked_by?: string;
  @ApiPropertyOptional({ type: Number, nullable: true }) plan?: number | null;
  @ApiProperty() device: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) item?: number | null;
  @ApiPropertyOptional({
    enum: SOURCES,
    default: 'api',
    description:
      'How the record was made: "chat", "qr" (the chat opened from a scanned device label), "api".',
  })
  source?: string;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    writeOnly: true,
    description:
      'Create only if this device\'s item has no record checked at or after this instant (a date alone: the start of that day in INSPECTION_TIME_ZONE); otherwise 409 with that record (docs/protocols/inspection-api.md, "First answer wins").',
  })
  if_unanswered_since?: string;
}

/** The multipart/form-data form of a record write: the fields as form fields plus the two file parts. */
export class CheckRecordMultipartDto {
  @ApiProperty({ enum: STATUSES }) status: string;
  @ApiPropertyOptional({ maxLength: 200 }) value?: string;
  @ApiPropertyOptional() note?: string;
  @ApiPropertyOptional({ maxLength: 150 }) checked_by?: string;
  @ApiPropertyOptional({ type: Number, description: 'Empty means null.' }) plan?: number;
  @ApiProperty() device: number;
  @ApiPropertyOptional({ type: Number, description: 'Empty means null.' }) item?: number;
  @ApiPropertyOptional({
    enum: SOURCES,
    default: 'api',
    description:
      'How the record was made: "chat", "qr" (the chat opened from a scanned device label), "api".',
  })
  source?: string;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    writeOnly: true,
    description:
      'Create only if this device\'s item has no record checked at or after this instant (a date alone: the start of that day in INSPECTION_TIME_ZONE); otherwise 409 with that record (docs/protocols/inspection-api.md, "First answer wins").',
  })
  if_unanswered_since?: string;
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'An image (JPEG, PNG, GIF, WebP, BMP or TIFF, checked by content), at most INSPECTION_MAX_PHOTO_BYTES (10 MB). An empty text field clears it.',
  })
  photo?: unknown;
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'Any file, at most INSPECTION_MAX_ATTACHMENT_BYTES (10 MB). An empty text field clears it.',
  })
  attachment?: unknown;
}

export class CheckRecordPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [CheckRecordDto] }) results: CheckRecordDto[];
}

export const CHECK_RECORD_FIELDS: readonly FieldSpec[] = [
  { kind: 'choice', name: 'status', required: true, choices: STATUSES },
  { kind: 'char', name: 'value', required: false, allowBlank: true, maxLength: 200 },
  { kind: 'char', name: 'note', required: false, allowBlank: true },
  { kind: 'char', name: 'checked_by', required: false, allowBlank: true, maxLength: 150 },
  { kind: 'pk', name: 'plan', required: false, nullable: true, table: 'check_plans' },
  { kind: 'pk', name: 'device', required: true, nullable: false, table: 'devices' },
  { kind: 'pk', name: 'item', required: false, nullable: true, table: 'check_items' },
  { kind: 'choice', name: 'source', required: false, choices: SOURCES },
];

/** The OPTIONS description of the check-record serializer: photo and attachment are model file fields. */
export const CHECK_RECORD_INFO = serializerInfo(CHECK_RECORD_FIELDS, [
  ID_FIELD,
  'status',
  'value',
  'note',
  ['photo', fileFieldInfo('photo', 'image upload')],
  ['attachment', fileFieldInfo('attachment', 'file upload')],
  ['checked_at', readOnlyFieldInfo('checked_at', 'datetime')],
  'checked_by',
  'plan',
  'device',
  'item',
  'source',
  ['out_of_range', readOnlyFieldInfo('out_of_range', 'boolean')],
]);
