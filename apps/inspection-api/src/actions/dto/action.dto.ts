import { ApiProperty } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { ACTION_SCHEMA } from '../action.schema';
import { ACTION_COMMENT_SCHEMA } from '../action-comment.schema';
import { type ActionTransitionDto } from './action-transition.dto';

export { ActionTransitionDto } from './action-transition.dto';

/** A corrective action as the API shows it (its OpenAPI properties are declared from `ACTION_SCHEMA`). */
export class ActionDto {
  declare id: number;
  declare title: string;
  declare description: string;
  declare record: number | null;
  declare device: number | null;
  declare item: number | null;
  declare assignee: number | null;
  declare assignee_username: string | null;
  declare assignee_team: number | null;
  declare assignee_team_name: string | null;
  declare due_date: string | null;
  declare priority: string;
  declare status: string;
  declare overdue: boolean;
  declare close_out_note: string;
  declare close_out_photo: string | null;
  declare created_at: string;
  declare created_by: string;
  declare updated_at: string;
  declare transitions: ActionTransitionDto[];
}
applyOpenApiProperties(ActionDto, ACTION_SCHEMA, 'read');

/** What a client writes as JSON (read-only and unknown keys are ignored). */
export class ActionInputDto {
  declare title: string;
  declare description?: string;
  declare record?: number | null;
  declare assignee?: number | null;
  declare assignee_team?: number | null;
  declare due_date?: string | null;
  declare priority?: string;
  declare status?: string;
  declare close_out_note?: string;
}
applyOpenApiProperties(ActionInputDto, ACTION_SCHEMA, 'write');

/** The multipart/form-data form of an action write: the fields as form fields plus the close-out photo. */
export class ActionMultipartDto {
  declare title: string;
  declare description?: string;
  declare record?: number | null;
  declare assignee?: number | null;
  declare assignee_team?: number | null;
  declare due_date?: string | null;
  declare priority?: string;
  declare status?: string;
  declare close_out_note?: string;
  declare close_out_photo?: unknown;
}
applyOpenApiProperties(ActionMultipartDto, ACTION_SCHEMA, 'multipart');

export class ActionPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [ActionDto] }) results: ActionDto[];
}

/** A comment on an action (its OpenAPI properties are declared from `ACTION_COMMENT_SCHEMA`). */
export class ActionCommentDto {
  declare id: number;
  declare action: number;
  declare text: string;
  declare author: string;
  declare created_at: string;
}
applyOpenApiProperties(ActionCommentDto, ACTION_COMMENT_SCHEMA, 'read');

export class ActionCommentInputDto {
  declare text: string;
}
applyOpenApiProperties(ActionCommentInputDto, ACTION_COMMENT_SCHEMA, 'write');

/** POST: a new action is open; its status moves through writes to it. */
export const ACTION_CREATE_FIELDS: readonly FieldSpec[] = schemaFieldSpecs(ACTION_SCHEMA, 'create');

/** PUT / PATCH: also the status (a transition) and the close-out note (the photo is a multipart file part). */
export const ACTION_UPDATE_FIELDS: readonly FieldSpec[] = schemaFieldSpecs(ACTION_SCHEMA, 'update');

export const ACTION_COMMENT_FIELDS = schemaFieldSpecs(ACTION_COMMENT_SCHEMA);

/** The OPTIONS description of the action serializer. */
export const ACTION_INFO = schemaInfo(ACTION_SCHEMA);

export const ACTION_COMMENT_INFO = schemaInfo(ACTION_COMMENT_SCHEMA);
