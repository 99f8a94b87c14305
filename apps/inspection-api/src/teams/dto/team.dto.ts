import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';

/** A team: people an action can be assigned to together. */
export class TeamDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ minLength: 1, maxLength: 150, description: 'Unique.' }) name: string;
  @ApiProperty({
    type: [Number],
    description: 'Ids of the members (active users when written), ascending; [] by default.',
  })
  members: number[];
  @ApiProperty({ format: 'date-time', readOnly: true }) created_at: string;
}

export class TeamInputDto {
  @ApiProperty({ minLength: 1, maxLength: 150 }) name: string;
  @ApiPropertyOptional({
    type: [Number],
    uniqueItems: true,
    description: 'Replaces the whole set; [] clears it.',
  })
  members?: number[];
}

export class TeamPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [TeamDto] }) results: TeamDto[];
}

export const TEAM_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 150 },
  { kind: 'pks', name: 'members', required: false, table: 'users', allowEmpty: true },
];

/** The OPTIONS description of the team serializer. */
export const TEAM_INFO = serializerInfo(TEAM_FIELDS, [
  ID_FIELD,
  'name',
  'members',
  ['created_at', readOnlyFieldInfo('created_at', 'datetime')],
]);
