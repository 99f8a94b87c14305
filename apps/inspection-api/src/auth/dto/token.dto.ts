import { ApiProperty } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { readOnlyFieldInfo, serializerInfo } from '../../drf/metadata';

export class TokenObtainPairDto {
  @ApiProperty({ minLength: 1 }) username: string;
  @ApiProperty({ minLength: 1, format: 'password' }) password: string;
}

export class TokenPairDto {
  @ApiProperty({ description: 'Refresh token (JWT, token_type "refresh", 1 day by default).' })
  refresh: string;
  @ApiProperty({ description: 'Access token (JWT, token_type "access", 5 minutes by default).' })
  access: string;
}

export class TokenRefreshDto {
  @ApiProperty({ minLength: 1 }) refresh: string;
}

export class TokenAccessDto {
  @ApiProperty({ minLength: 1, readOnly: true }) access: string;
}

/** simplejwt's TokenObtainSerializer: `username` (trimmed) and `password` (PasswordField, not trimmed). */
export const TOKEN_OBTAIN_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'username', required: true, allowBlank: false },
  { kind: 'char', name: 'password', required: true, allowBlank: false, trim: false },
];

export const TOKEN_REFRESH_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'refresh', required: true, allowBlank: false },
];

/** The OPTIONS descriptions of simplejwt's serializers. */
export const TOKEN_OBTAIN_INFO = serializerInfo(TOKEN_OBTAIN_FIELDS, ['username', 'password']);
export const TOKEN_REFRESH_INFO = serializerInfo(TOKEN_REFRESH_FIELDS, [
  'refresh',
  ['access', readOnlyFieldInfo('access', 'string')],
]);
