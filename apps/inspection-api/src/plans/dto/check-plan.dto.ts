import { ApiProperty } from '@nestjs/swagger';
import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { CHECK_PLAN_SCHEMA } from '../check-plan.schema';
import { type PlanScheduleDto } from './plan-schedule.dto';

export { PlanScheduleDto } from './plan-schedule.dto';

/** A check plan as the API shows it (its OpenAPI properties are declared from `CHECK_PLAN_SCHEMA`). */
export class CheckPlanDto {
  declare id: number;
  declare devices: number[];
  declare name: string;
  declare frequency: string;
  declare active: boolean;
  declare has_devices: boolean;
  declare open_action_on: string;
  declare schedule: PlanScheduleDto;
  declare assignees: number[];
  declare assignee_teams: number[];
}
applyOpenApiProperties(CheckPlanDto, CHECK_PLAN_SCHEMA, 'read');

/** What a client writes (read-only and unknown keys are ignored). */
export class CheckPlanInputDto {
  declare devices: number[];
  declare name: string;
  declare frequency: string;
  declare active?: boolean;
  declare open_action_on?: string;
  declare schedule?: PlanScheduleDto;
  declare assignees?: number[];
  declare assignee_teams?: number[];
}
applyOpenApiProperties(CheckPlanInputDto, CHECK_PLAN_SCHEMA, 'write');

export class CheckPlanPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [CheckPlanDto] }) results: CheckPlanDto[];
}

/** The check-plan serializer's fields the DRF field table validates (`schedule`: `plan-schedule.ts`). */
export const CHECK_PLAN_FIELDS = schemaFieldSpecs(CHECK_PLAN_SCHEMA);

/** The OPTIONS description of the check-plan serializer. */
export const CHECK_PLAN_INFO = schemaInfo(CHECK_PLAN_SCHEMA);
