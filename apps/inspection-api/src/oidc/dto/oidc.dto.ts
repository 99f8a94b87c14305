import { ApiProperty } from '@nestjs/swagger';
import { type FieldSpec } from '../../drf/serializer';
import { serializerInfo } from '../../drf/metadata';

export class SignInProviderDto {
  @ApiProperty({ description: 'The provider\'s name for "Sign in with …" (INSPECTION_OIDC_NAME).' })
  name: string;
  @ApiProperty({ description: 'Where a browser starts the sign-in; add `?next=<where to return>`.' })
  login_url: string;
}

export class SignInOptionsDto {
  @ApiProperty({ type: SignInProviderDto, nullable: true }) provider: SignInProviderDto | null;
  @ApiProperty({ description: 'Whether people may sign in with a password at POST /api/token/.' })
  local_passwords: boolean;
}

export class OidcCodeDto {
  @ApiProperty({
    minLength: 1,
    description: 'The `oidc_code` a sign-in returned with (one use, 60 seconds).',
  })
  code: string;
}

export const OIDC_CODE_FIELDS: readonly FieldSpec[] = [
  { kind: 'char', name: 'code', required: true, allowBlank: false, maxLength: 200 },
];

export const OIDC_CODE_INFO = serializerInfo(OIDC_CODE_FIELDS, ['code']);
