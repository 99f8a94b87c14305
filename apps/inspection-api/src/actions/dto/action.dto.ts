import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { fileFieldInfo, ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { ACTION_PRIORITIES, ACTION_STATUSES } from '../action-transitions';

export class ActionTransitionDto {
  @ApiProperty({
    type: String,
    enum: ACTION_STATUSES,
    nullable: true,
    description: 'null when the action was opened.',
  })
  from: string | null;
  @ApiProperty({ enum: ACTION_STATUSES }) to: string;
  @ApiProperty({ description: 'The username of who made it ("" when a record opened the action by itself).' })
  by: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

/** A corrective action as the API shows it. */
export class ActionDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ minLength: 1, maxLength: 200 }) title: string;
  @ApiPropertyOptional({ default: '' }) description: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The check record it came from (null once deleted, or none).',
  })
  record: number | null;
  @ApiProperty({ type: Number, nullable: true, readOnly: true, description: "The record's device." })
  device: number | null;
  @ApiProperty({ type: Number, nullable: true, readOnly: true, description: "The record's check item." })
  item: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Id of the user who is to do it (null when a team is, or nobody).',
  })
  assignee: number | null;
  @ApiProperty({ type: String, nullable: true, readOnly: true }) assignee_username: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Id of the team whose members are to do it (null when a user is, or nobody). A user and a team together are a 400; sending one unassigns the other.',
  })
  assignee_team: number | null;
  @ApiProperty({ type: String, nullable: true, readOnly: true }) assignee_team_name: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) due_date: string | null;
  @ApiProperty({ enum: ACTION_PRIORITIES, default: 'medium' }) priority: string;
  @ApiProperty({
    enum: ACTION_STATUSES,
    description: 'open → in_progress → done → verified, or cancelled (see the transitions rules).',
  })
  status: string;
  @ApiProperty({
    readOnly: true,
    description: 'Open or in progress with a due date before today (INSPECTION_TIME_ZONE).',
  })
  overdue: boolean;
  @ApiPropertyOptional({ default: '' }) close_out_note: string;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    readOnly: true,
    description: 'Absolute URL of the close-out photo; set through multipart/form-data.',
  })
  close_out_photo: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) created_at: string;
  @ApiProperty({ readOnly: true, description: 'Username of who opened it.' }) created_by: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) updated_at: string;
  @ApiProperty({
    type: [ActionTransitionDto],
    readOnly: true,
    description: 'Every status change, oldest first.',
  })
  transitions: ActionTransitionDto[];
}

export class ActionInputDto {
  @ApiProperty({ minLength: 1, maxLength: 200 }) title: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ type: Number, nullable: true }) record?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) assignee?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) assignee_team?: number | null;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) due_date?: string | null;
  @ApiPropertyOptional({ enum: ACTION_PRIORITIES }) priority?: string;
  @ApiPropertyOptional({ enum: ACTION_STATUSES, description: 'Writes only (a new action is open).' })
  status?: string;
  @ApiPropertyOptional() close_out_note?: string;
}

export class ActionMultipartDto extends ActionInputDto {
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'An image (checked by content), at most INSPECTION_MAX_PHOTO_BYTES. An empty text field clears it.',
  })
  close_out_photo?: unknown;
}

export class ActionPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [ActionDto] }) results: ActionDto[];
}

export class ActionCommentDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ readOnly: true }) action: number;
  @ApiProperty({ minLength: 1, maxLength: 5000 }) text: string;
  @ApiProperty({ readOnly: true, description: 'Username of the author.' }) author: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) created_at: string;
}

export class ActionCommentInputDto {
  @ApiProperty({ minLength: 1, maxLength: 5000 }) text: string;
}

const COMMON: readonly FieldSpec[] = [
  { kind: 'char', name: 'title', required: true, allowBlank: false, maxLength: 200 },
  { kind: 'char', name: 'description', required: false, allowBlank: true },
  { kind: 'pk', name: 'record', required: false, nullable: true, table: 'check_records' },
  { kind: 'pk', name: 'assignee', required: false, nullable: true, table: 'users' },
  { kind: 'pk', name: 'assignee_team', required: false, nullable: true, table: 'teams' },
  { kind: 'date', name: 'due_date', required: false, nullable: true },
  { kind: 'choice', name: 'priority', required: false, choices: ACTION_PRIORITIES },
];

/** POST: a new action is open; its status moves through writes to it. */
export const ACTION_CREATE_FIELDS: readonly FieldSpec[] = COMMON;

/** PUT / PATCH: also the status (a transition) and the close-out note (the photo is a multipart file part). */
export const ACTION_UPDATE_FIELDS: readonly FieldSpec[] = [
  ...COMMON,
  { kind: 'choice', name: 'status', required: false, choices: ACTION_STATUSES },
  { kind: 'char', name: 'close_out_note', required: false, allowBlank: true },
];

export const ACTION_COMMENT_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'text', required: true, allowBlank: false, maxLength: 5000 },
];

/** The OPTIONS description of the action serializer. */
export const ACTION_INFO = serializerInfo(ACTION_UPDATE_FIELDS, [
  ID_FIELD,
  'title',
  'description',
  'record',
  ['device', readOnlyFieldInfo('device', 'field')],
  ['item', readOnlyFieldInfo('item', 'field')],
  'assignee',
  ['assignee_username', readOnlyFieldInfo('assignee_username', 'string')],
  'assignee_team',
  ['assignee_team_name', readOnlyFieldInfo('assignee_team_name', 'string')],
  'due_date',
  'priority',
  'status',
  ['overdue', readOnlyFieldInfo('overdue', 'boolean')],
  'close_out_note',
  ['close_out_photo', fileFieldInfo('close_out_photo', 'image upload')],
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
  ['created_by', readOnlyFieldInfo('created_by', 'string')],
  ['updated_at', readOnlyFieldInfo('updated_at', 'datetime')],
  ['transitions', readOnlyFieldInfo('transitions', 'field')],
]);

export const ACTION_COMMENT_INFO = serializerInfo(ACTION_COMMENT_FIELDS, [
  ID_FIELD,
  ['action', readOnlyFieldInfo('action', 'field')],
  'text',
  ['author', readOnlyFieldInfo('author', 'string')],
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
]);
