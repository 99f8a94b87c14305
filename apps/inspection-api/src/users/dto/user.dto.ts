import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { ID_FIELD, readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';
import { ROLES } from '../role';

/** A user as supervisors see it (never the password). */
export class UserDto {
  @ApiProperty({ readOnly: true }) id: number;
  @ApiProperty({ maxLength: 150 }) username: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty() is_active: boolean;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_joined: string;
  @ApiProperty({ type: String, format: 'date-time', readOnly: true, nullable: true }) last_login:
    string | null;
  @ApiProperty({
    enum: ['person', 'service'],
    readOnly: true,
    description:
      'service: an account of software (INSPECTION_SERVICE_ACCOUNTS), not deactivatable through the API.',
  })
  kind: string;
}

/** The signed-in user. */
export class CurrentUserDto {
  @ApiProperty() id: number;
  @ApiProperty() username: string;
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty() is_active: boolean;
}

export class UserCreateDto {
  @ApiProperty({ minLength: 1, maxLength: 150, pattern: '^[\\w.@+-]+$' }) username: string;
  @ApiProperty({ minLength: 1, writeOnly: true }) password: string;
  @ApiPropertyOptional({ enum: ROLES, default: 'inspector' }) role?: string;
}

export class UserUpdateDto {
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiPropertyOptional() is_active?: boolean;
}

export class PasswordDto {
  @ApiProperty({ minLength: 1, writeOnly: true }) password: string;
}

export class UserPageDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) next: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) previous: string | null;
  @ApiProperty({ type: [UserDto] }) results: UserDto[];
}

const PASSWORD: FieldSpec = {
  kind: 'char',
  name: 'password',
  required: true,
  allowBlank: false,
  trim: false,
};

export const USER_CREATE_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'username', required: true, allowBlank: false, maxLength: 150 },
  PASSWORD,
  { kind: 'choice', name: 'role', required: false, choices: ROLES },
];

/** Supervisors change a user's role and activity; the username is fixed, the password has its own action. */
export const USER_UPDATE_FIELDS: readonly FieldSpec[] = [
  { kind: 'choice', name: 'role', required: true, choices: ROLES },
  { kind: 'bool', name: 'is_active' },
];

export const PASSWORD_FIELDS: readonly FieldSpec[] = [PASSWORD];

export const USER_CREATE_INFO = serializerInfo(USER_CREATE_FIELDS, [
  ID_FIELD,
  'username',
  'password',
  'role',
  ['is_active', readOnlyFieldInfo('is_active', 'boolean')],
  ['date_joined', readOnlyFieldInfo('date_joined', 'datetime')],
  ['last_login', readOnlyFieldInfo('last_login', 'datetime')],
  ['kind', readOnlyFieldInfo('kind', 'string')],
]);

export const USER_UPDATE_INFO = serializerInfo(USER_UPDATE_FIELDS, [
  ID_FIELD,
  ['username', readOnlyFieldInfo('username', 'string')],
  'role',
  'is_active',
  ['date_joined', readOnlyFieldInfo('date_joined', 'datetime')],
  ['last_login', readOnlyFieldInfo('last_login', 'datetime')],
  ['kind', readOnlyFieldInfo('kind', 'string')],
]);
