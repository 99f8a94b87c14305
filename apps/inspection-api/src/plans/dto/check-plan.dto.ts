import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { OPEN_ACTION_ON } from '../../actions/action-transitions';
import { FREQUENCIES } from '../check-plan.entity';

export class CheckPlanDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({
    type: [Number],
    uniqueItems: true,
    minItems: 1,
    description: 'Ids of existing devices; a non-empty list without duplicates (duplicates are a 400).',
  })
  devices: number[];
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
  @ApiPropertyOptional({ default: true }) active: boolean;
  @ApiProperty({
    readOnly: true,
    description: 'False when every device of the plan was deleted (archived): the plan has nothing to check.',
  })
  has_devices: boolean;
  @ApiPropertyOptional({
    enum: OPEN_ACTION_ON,
    default: 'fail',
    description:
      'When a check record of the plan opens a corrective action by itself: "fail", "warn" (a warning or a failure) or "never".',
  })
  open_action_on: string;
}

export class CheckPlanInputDto {
  @ApiProperty({ type: [Number], uniqueItems: true, minItems: 1 }) devices: number[];
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
  @ApiPropertyOptional({ default: true }) active?: boolean;
  @ApiPropertyOptional({ enum: OPEN_ACTION_ON, default: 'fail' }) open_action_on?: string;
}

export class CheckPlanPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [CheckPlanDto] }) results: CheckPlanDto[];
}

export const CHECK_PLAN_FIELDS: readonly FieldSpec[] = [
  { kind: 'pks', name: 'devices', required: true, table: 'devices' },
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 200 },
  { kind: 'choice', name: 'frequency', required: true, choices: FREQUENCIES },
  { kind: 'bool', name: 'active' },
  { kind: 'choice', name: 'open_action_on', required: false, choices: OPEN_ACTION_ON },
];

/** The OPTIONS description of the check-plan serializer. */
export const CHECK_PLAN_INFO = serializerInfo(CHECK_PLAN_FIELDS, [
  ID_FIELD,
  'devices',
  'name',
  'frequency',
  'active',
  ['has_devices', readOnlyFieldInfo('has_devices', 'boolean')],
  'open_action_on',
]);
