import { ApiProperty } from '@nestjs/swagger';
import { DUE_STATUSES, FREQUENCIES } from '../due-rules';

class DuePlanDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
}

class DueCheckPlanTeamDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [Number], description: "The team's members now, ascending." }) members: number[];
}

class DueCheckPlanDto extends DuePlanDto {
  @ApiProperty({ type: [Number], description: "Ids of the plan's assignees (users)." }) assignees: number[];
  @ApiProperty({
    type: [DueCheckPlanTeamDto],
    description: "The plan's assignee teams: each member counts as an assignee of the check.",
  })
  assignee_teams: DueCheckPlanTeamDto[];
}

class DueDeviceDto {
  @ApiProperty() id: number;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() group: string;
  @ApiProperty() location: string;
}

class DueItemDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

class DueLastRecordDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ['ok', 'warn', 'fail'] }) status: string;
  @ApiProperty({ format: 'date-time' }) checked_at: string;
  @ApiProperty() checked_by: string;
}

/** One check: an active plan's device's check item (or the device itself when it has no items). */
export class DueCheckDto {
  @ApiProperty({ type: DueCheckPlanDto }) plan: DueCheckPlanDto;
  @ApiProperty({ type: DueDeviceDto }) device: DueDeviceDto;
  @ApiProperty({ type: DueItemDto, nullable: true, description: 'null for a device without check items.' })
  item: DueItemDto | null;
  @ApiProperty({ enum: DUE_STATUSES }) status: string;
  @ApiProperty({ format: 'date', description: "First day of the plan's current period." })
  period_start: string;
  @ApiProperty({ format: 'date', description: "Last day of the plan's current period." }) period_end: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "The period's due time (the plan's schedule.due_time on its last day); null without one.",
  })
  due_at: string | null;
  @ApiProperty({ type: DueLastRecordDto, nullable: true, description: 'null when never checked.' })
  last_record: DueLastRecordDto | null;
}

export class DuePageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [DueCheckDto] }) results: DueCheckDto[];
}

class DuePlanSummaryDto extends DuePlanDto {
  @ApiProperty() due: number;
  @ApiProperty() overdue: number;
  @ApiProperty() done: number;
  @ApiProperty() total: number;
}

class DueAssigneeSummaryDto {
  @ApiProperty() assignee: number;
  @ApiProperty() assignee_username: string;
  @ApiProperty() due: number;
  @ApiProperty() overdue: number;
  @ApiProperty() done: number;
  @ApiProperty() total: number;
  @ApiProperty({
    description:
      'Unfinished corrective actions (open or in progress) assigned to them or to a team of theirs.',
  })
  open_actions: number;
  @ApiProperty({ description: 'Those of their unfinished actions due before the date.' })
  overdue_actions: number;
}

export class DueSummaryDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ example: 'UTC' }) time_zone: string;
  @ApiProperty() due: number;
  @ApiProperty() overdue: number;
  @ApiProperty() done: number;
  @ApiProperty({ description: 'Unfinished corrective actions (open or in progress).' }) open_actions: number;
  @ApiProperty({ description: 'Unfinished actions due before the date.' }) overdue_actions: number;
  @ApiProperty({ type: [DuePlanSummaryDto] }) plans: DuePlanSummaryDto[];
  @ApiProperty({
    type: [DueAssigneeSummaryDto],
    description:
      "Each assignee's load: the checks of the plans and the unfinished actions assigned to them or to a team of theirs.",
  })
  assignees: DueAssigneeSummaryDto[];
}
