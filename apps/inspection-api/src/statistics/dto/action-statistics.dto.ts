import { ApiProperty } from '@nestjs/swagger';

class AssigneeLoadDto {
  @ApiProperty({ type: Number, nullable: true, description: 'The user id; null for the unassigned actions.' })
  assignee: number | null;
  @ApiProperty({ type: String, nullable: true }) assignee_username: string | null;
  @ApiProperty() open: number;
  @ApiProperty() in_progress: number;
  @ApiProperty({ description: 'Done, waiting for a supervisor to verify.' }) done: number;
  @ApiProperty({ description: 'Open or in progress with a due date before today.' }) overdue: number;
}

export class ActionStatisticsDto {
  @ApiProperty({
    format: 'date',
    description: 'Today in INSPECTION_TIME_ZONE: actions due before it are overdue.',
  })
  date: string;
  @ApiProperty({ example: 'UTC' }) time_zone: string;
  @ApiProperty() total: number;
  @ApiProperty() open: number;
  @ApiProperty() in_progress: number;
  @ApiProperty() done: number;
  @ApiProperty() verified: number;
  @ApiProperty() cancelled: number;
  @ApiProperty({ description: 'Open or in progress with a due date before today.' }) overdue: number;
  @ApiProperty({
    type: [AssigneeLoadDto],
    description:
      'Each assignee with an open, in-progress or done action (the unassigned first, then by user id): the load per person.',
  })
  assignees: AssigneeLoadDto[];
}
