import { ApiProperty } from '@nestjs/swagger';
import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { TEAM_SCHEMA } from '../team.schema';

/** A team: people an action can be assigned to together (its OpenAPI properties are declared from `TEAM_SCHEMA`). */
export class TeamDto {
  declare id: number;
  declare name: string;
  declare members: number[];
  declare created_at: string;
}
applyOpenApiProperties(TeamDto, TEAM_SCHEMA, 'read');

/** What a client writes (read-only and unknown keys are ignored). */
export class TeamInputDto {
  declare name: string;
  declare members?: number[];
}
applyOpenApiProperties(TeamInputDto, TEAM_SCHEMA, 'write');

export class TeamPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [TeamDto] }) results: TeamDto[];
}

/** The team serializer's writable fields (validation). */
export const TEAM_FIELDS = schemaFieldSpecs(TEAM_SCHEMA);

/** The OPTIONS description of the team serializer. */
export const TEAM_INFO = schemaInfo(TEAM_SCHEMA);
