import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_EVENTS, AUDIT_RESOURCES } from '../audit-resources';

/** One entry of the audit trail (read-only). */
export class AuditEntryDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ enum: AUDIT_RESOURCES }) resource: string;
  @ApiProperty({ description: 'The id of the device, item, plan, record, action or user.' })
  resource_id: number;
  @ApiProperty({
    enum: AUDIT_EVENTS,
    description:
      "created, updated, deleted; archived / restored (DELETE and restore of devices, items, plans); device_added / device_removed (a plan's devices); assignee_added / assignee_removed and team_added / team_removed (a plan's assignees and assignee teams); member_added / member_removed (a team's members); commented (an action's comment).",
  })
  event: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Id of the user who made the change (null: the system's own write, such as the users CLI).",
  })
  actor: number | null;
  @ApiProperty({ description: 'Username of who made the change, as it was then ("" for the system).' })
  actor_username: string;
  @ApiProperty({ format: 'date-time', description: "The change's transaction time." })
  at: string;
  @ApiProperty({ type: [String], description: 'The fields whose value differs between before and after.' })
  changed: string[];
  @ApiProperty({
    type: Object,
    nullable: true,
    description:
      'The stored row before the change (null for created): API field names, timestamps as PostgreSQL writes them, no secrets.',
  })
  before: Record<string, unknown> | null;
  @ApiProperty({
    type: Object,
    nullable: true,
    description:
      'The stored row after the change (null for deleted); a password change shows as "password_changed": true.',
  })
  after: Record<string, unknown> | null;
}

export class AuditPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [AuditEntryDto] }) results: AuditEntryDto[];
}
