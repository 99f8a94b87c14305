import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldInfo } from '../../drf/metadata';
import { MAX_EVERY, SCHEDULE_UNITS } from '../../due/due-rules';

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

/** The OPTIONS description of the nested schedule serializer (DRF SimpleMetadata: `nested object` with `children`). */
export const SCHEDULE_INFO: FieldInfo = {
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
