import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { EVENT_TYPES } from '../../events/event-types';

export class WebhookDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ format: 'uri', maxLength: 2000, description: 'http(s) URL on a public address.' })
  url: string;
  @ApiProperty({ type: [String], enum: EVENT_TYPES, minItems: 1 }) events: string[];
  @ApiPropertyOptional({
    writeOnly: true,
    description:
      'Signing secret, `whsec_` + base64 of 24 to 64 bytes (Standard Webhooks). Omitted: one is made, shown once in the creation answer.',
  })
  secret: string;
  @ApiPropertyOptional({
    default: true,
    description: 'False: nothing is sent. Setting it true again clears a disable.',
  })
  active: boolean;
  @ApiProperty({ readOnly: true, format: 'date-time' }) created_at: string;
  @ApiProperty({ readOnly: true }) created_by: string;
  @ApiProperty({ readOnly: true, format: 'date-time', nullable: true, type: String }) failing_since:
    string | null;
  @ApiProperty({ readOnly: true, description: 'Why the endpoint was disabled ("" when it was not).' })
  disabled_reason: string;
}

export class WebhookInputDto {
  @ApiProperty({ format: 'uri', maxLength: 2000 }) url: string;
  @ApiProperty({ type: [String], enum: EVENT_TYPES, minItems: 1 }) events: string[];
  @ApiPropertyOptional() secret?: string;
  @ApiPropertyOptional({ default: true }) active?: boolean;
}

export class WebhookPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [WebhookDto] }) results: WebhookDto[];
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: "The event id: the body's `id` and the `webhook-id` header." })
  event: string;
  @ApiProperty({ enum: EVENT_TYPES }) event_type: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'cancelled'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number }) last_status_code: number | null;
  @ApiProperty() last_error: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_attempt_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) delivered_at: string | null;
}

export class WebhookDeliveryPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [WebhookDeliveryDto] }) results: WebhookDeliveryDto[];
}

/** For OPTIONS (DRF SimpleMetadata); the service validates the input itself (a list of event types). */
const WEBHOOK_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'url', required: true, allowBlank: false, maxLength: 2000 },
  { kind: 'choice', name: 'events', required: true, choices: EVENT_TYPES },
  { kind: 'char', name: 'secret', required: false, allowBlank: false, maxLength: 200 },
  { kind: 'bool', name: 'active' },
];

export const WEBHOOK_INFO = serializerInfo(WEBHOOK_FIELDS, [
  ID_FIELD,
  'url',
  'events',
  'secret',
  'active',
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
  ['created_by', readOnlyFieldInfo('created_by', 'string')],
  ['failing_since', readOnlyFieldInfo('failing_since', 'datetime')],
  ['disabled_reason', readOnlyFieldInfo('disabled_reason', 'string')],
]);
