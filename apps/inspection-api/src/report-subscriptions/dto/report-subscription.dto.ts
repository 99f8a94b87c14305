import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { type FieldSpec } from '../../drf/serializer';
import { REPORT_LANGUAGES } from '../../reports/report-text';

export class ReportSubscriptionSendDto {
  @ApiProperty({ description: 'The month reported, YYYY-MM.' }) month: string;
  @ApiProperty({ enum: ['pending', 'sent', 'failed'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ description: 'The last failure ("" when none).' }) last_error: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The PDF’s verification id.' })
  report: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) sent_at: string | null;
}

export class ReportSubscriptionDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ type: [String], format: 'email', minItems: 1, maxItems: 20 }) recipients: string[];
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The plan whose rounds are reported (or `device`).',
  })
  plan: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The device whose history is reported (or `plan`).',
  })
  device: number | null;
  @ApiPropertyOptional({ enum: REPORT_LANGUAGES, default: 'en' }) language: string;
  @ApiPropertyOptional({
    description: 'IANA zone of the send time and of the month; default INSPECTION_TIME_ZONE.',
  })
  time_zone: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 28, default: 1 }) day_of_month: number;
  @ApiPropertyOptional({ format: 'time', default: '07:00:00' }) send_time: string;
  @ApiPropertyOptional({ default: true }) active: boolean;
  @ApiProperty({ readOnly: true, format: 'date-time' }) created_at: string;
  @ApiProperty({ readOnly: true }) created_by: string;
  @ApiProperty({ readOnly: true, format: 'date-time', nullable: true, type: String }) next_send_at:
    string | null;
  @ApiProperty({
    readOnly: true,
    nullable: true,
    type: String,
    description: 'The month the next send reports.',
  })
  next_month: string | null;
  @ApiProperty({ readOnly: true, nullable: true, type: ReportSubscriptionSendDto })
  last_send: ReportSubscriptionSendDto | null;
}

export class ReportSubscriptionInputDto {
  @ApiProperty({ type: [String], format: 'email', minItems: 1, maxItems: 20 }) recipients: string[];
  @ApiPropertyOptional({ nullable: true, type: Number }) plan?: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) device?: number | null;
  @ApiPropertyOptional({ enum: REPORT_LANGUAGES, default: 'en' }) language?: string;
  @ApiPropertyOptional() time_zone?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 28, default: 1 }) day_of_month?: number;
  @ApiPropertyOptional({ format: 'time', default: '07:00:00' }) send_time?: string;
  @ApiPropertyOptional({ default: true }) active?: boolean;
}

export class ReportSubscriptionPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [ReportSubscriptionDto] }) results: ReportSubscriptionDto[];
}

/** For OPTIONS (DRF SimpleMetadata); the service validates the input itself. */
const REPORT_SUBSCRIPTION_FIELDS: readonly FieldSpec[] = [
  { kind: 'pk', name: 'plan', required: false, nullable: true, table: 'check_plans' },
  { kind: 'pk', name: 'device', required: false, nullable: true, table: 'devices' },
  { kind: 'choice', name: 'language', required: false, choices: REPORT_LANGUAGES },
  { kind: 'char', name: 'time_zone', required: false, allowBlank: false, maxLength: 64 },
  { kind: 'bool', name: 'active' },
];

export const REPORT_SUBSCRIPTION_INFO = serializerInfo(REPORT_SUBSCRIPTION_FIELDS, [
  ID_FIELD,
  [
    'recipients',
    {
      type: 'list',
      required: true,
      read_only: false,
      label: 'Recipients',
      child: { type: 'email', required: true, read_only: false, max_length: 254 },
    },
  ],
  'plan',
  'device',
  'language',
  'time_zone',
  ['day_of_month', { type: 'integer', required: false, read_only: false, label: 'Day of month' }],
  ['send_time', { type: 'time', required: false, read_only: false, label: 'Send time' }],
  'active',
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
  ['created_by', readOnlyFieldInfo('created_by', 'string')],
  ['next_send_at', readOnlyFieldInfo('next_send_at', 'datetime')],
  ['next_month', readOnlyFieldInfo('next_month', 'string')],
  ['last_send', readOnlyFieldInfo('last_send', 'nested object')],
]);
