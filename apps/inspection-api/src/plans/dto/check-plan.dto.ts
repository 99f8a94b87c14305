import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { type FieldInfo, ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { MAX_EVERY, SCHEDULE_UNITS } from '../../due/due-rules';
import { OPEN_ACTION_ON } from '../../actions/action-transitions';
import { FREQUENCIES } from '../check-plan.entity';

export class PlanScheduleDto {
  @ApiProperty({ minimum: 1, maximum: MAX_EVERY }) every: number;
  @ApiProperty({ enum: SCHEDULE_UNITS }) unit: string;
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    description:
      "First day of the first period, and the periods' phase; null: periods aligned on 2001-01-01 (ISO weeks, calendar months, quarters and years). No checks before it.",
  })
  starts_on: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '09:00:00',
    description: "Time of day (hh:mm[:ss]) the check is due by on the period's last day; overdue after it.",
  })
  due_time: string | null;
}

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
  @ApiProperty({
    type: PlanScheduleDto,
    description:
      'How often the checks come round: every N days, weeks, months or years. `frequency` shows its unit as the spec word (day: daily, week: weekly, month and year: monthly).',
  })
  schedule: PlanScheduleDto;
  @ApiProperty({
    type: [Number],
    description: 'Ids of the users responsible for the rounds (active users); [] by default.',
  })
  assignees: number[];
  @ApiProperty({
    type: [Number],
    description:
      "Ids of the teams responsible for the rounds; every member counts as an assignee of the plan's checks (due lists, each person's load, reminders); [] by default.",
  })
  assignee_teams: number[];
}

export class CheckPlanInputDto {
  @ApiProperty({ type: [Number], uniqueItems: true, minItems: 1 }) devices: number[];
  @ApiProperty({ minLength: 1, maxLength: 200 }) name: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
  @ApiPropertyOptional({ default: true }) active?: boolean;
  @ApiPropertyOptional({ enum: OPEN_ACTION_ON, default: 'fail' }) open_action_on?: string;
  @ApiPropertyOptional({
    type: PlanScheduleDto,
    description:
      'Written whole. With it `frequency` may be left out (it follows the schedule); without it a frequency that changes sets the schedule to every 1 day, week or month.',
  })
  schedule?: PlanScheduleDto;
  @ApiPropertyOptional({
    type: [Number],
    uniqueItems: true,
    description: 'Replaces the whole set; [] clears it.',
  })
  assignees?: number[];
  @ApiPropertyOptional({
    type: [Number],
    uniqueItems: true,
    description: 'Ids of existing teams; replaces the whole set; [] clears it.',
  })
  assignee_teams?: number[];
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
  { kind: 'pks', name: 'assignees', required: false, table: 'users', allowEmpty: true },
  { kind: 'pks', name: 'assignee_teams', required: false, table: 'teams', allowEmpty: true },
];

/** The OPTIONS description of the nested schedule serializer (DRF SimpleMetadata: `nested object` with `children`). */
const SCHEDULE_INFO: FieldInfo = {
  type: 'nested object',
  required: false,
  read_only: false,
  label: 'Schedule',
  children: {
    every: { type: 'integer', required: true, read_only: false, label: 'Every' },
    unit: {
      type: 'choice',
      required: true,
      read_only: false,
      label: 'Unit',
      choices: SCHEDULE_UNITS.map((value) => ({
        value,
        display_name: value.charAt(0).toUpperCase() + value.slice(1),
      })),
    },
    starts_on: { type: 'date', required: false, read_only: false, label: 'Starts on' },
    due_time: { type: 'time', required: false, read_only: false, label: 'Due time' },
  },
};

/** The OPTIONS description of the check-plan serializer. */
export const CHECK_PLAN_INFO = serializerInfo(CHECK_PLAN_FIELDS, [
  ID_FIELD,
  'devices',
  'name',
  'frequency',
  'active',
  ['has_devices', readOnlyFieldInfo('has_devices', 'boolean')],
  'open_action_on',
  ['schedule', SCHEDULE_INFO],
  'assignees',
  'assignee_teams',
]);
