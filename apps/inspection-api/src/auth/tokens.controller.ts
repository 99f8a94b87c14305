import { All, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '@fieldops/platform';
import { type Request } from 'express';
import { isFieldErrors, validationError } from '../drf/exceptions';
import { validateInput } from '../drf/serializer';
import { Body, type RequestInput } from '../drf/request-input';
import { otherMethod, postActions, TOKEN_METHODS } from '../drf/routes';
import { DrfException } from '../drf/exceptions';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { UsersService } from '../users/users.service';
import {
  TOKEN_OBTAIN_FIELDS,
  TOKEN_OBTAIN_INFO,
  TOKEN_REFRESH_FIELDS,
  TOKEN_REFRESH_INFO,
  TokenAccessDto,
  TokenObtainPairDto,
  TokenPairDto,
  TokenRefreshDto,
} from './dto/token.dto';
import { LoginClientAddress } from './login-client-address';
import { LoginThrottle } from './login-throttle.service';
import { TokensService } from './tokens.service';

const noRelations = (): Promise<Set<number>> => Promise.resolve(new Set());

/** simplejwt's TokenObtainPairView and TokenRefreshView. They need no bearer header. */
@ApiTags('token')
@Public()
@Controller('api/token')
export class TokensController {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly throttle: LoginThrottle,
    private readonly clientAddress: LoginClientAddress,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Obtain an access and refresh token pair',
    description:
      'Takes user credentials and returns a JWT pair. Answers 201 as the spec says (a stock simplejwt view answers 200).',
  })
  @ApiBody({ type: TokenObtainPairDto })
  @ApiCreatedResponse({ type: TokenPairDto })
  @ApiBadRequestResponse({ description: 'Field errors, e.g. {"username":["This field is required."]}' })
  @ApiUnauthorizedResponse({ description: '{"detail":"No active account found with the given credentials"}' })
  @ApiForbiddenResponse({
    description:
      'Password sign-in is turned off (INSPECTION_LOCAL_PASSWORDS=false) for everyone but the service accounts: {"detail":"…","code":"password_sign_in_disabled"}',
  })
  @ApiTooManyRequestsResponse({
    description:
      'Too many refused passwords from this client address, or for this user name from this address: {"detail":"Request was throttled. Expected available in N seconds."} with Retry-After',
  })
  async obtain(@Body() body: RequestInput, @Req() request: Request): Promise<object> {
    const address = await this.clientAddress.of(request);
    await this.throttle.assertAddressAllowed(address);
    const { values, errors } = await validateInput(body.read(), TOKEN_OBTAIN_FIELDS, {
      partial: false,
      existingIds: noRelations,
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    const username = values.username as string;
    if (!this.environment.INSPECTION_LOCAL_PASSWORDS && !this.users.isServiceAccount(username)) {
      throw new DrfException(403, {
        detail: `Sign-in with a password is turned off here: sign in with ${this.environment.INSPECTION_OIDC_NAME}.`,
        code: 'password_sign_in_disabled',
      });
    }
    await this.throttle.attempt(username, address);
    let userId: number | undefined;
    try {
      userId = await this.users.authenticate(username, values.password as string);
    } catch (error) {
      // Only a refused password counts: a login the database could not check gives its points back.
      await this.throttle.notCounted(username, address).catch(() => undefined);
      throw error;
    }
    if (userId === undefined) {
      await this.throttle.refused(username);
      throw new DrfException(401, { detail: 'No active account found with the given credentials' });
    }
    await this.throttle.succeeded(username, address);
    return this.tokens.pair(userId);
  }

  @Post('refresh')
  @ApiOperation({ summary: 'Obtain a new access token for a refresh token' })
  @ApiBody({ type: TokenRefreshDto })
  @ApiCreatedResponse({ type: TokenAccessDto })
  @ApiUnauthorizedResponse({
    description: '{"detail":"Token is invalid or expired","code":"token_not_valid"}',
  })
  async refresh(@Body() body: RequestInput): Promise<object> {
    const { values, errors } = await validateInput(body.read(), TOKEN_REFRESH_FIELDS, {
      partial: false,
      existingIds: noRelations,
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    return this.tokens.refresh(values.refresh as string);
  }

  @Post('blacklist')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign one session out: its refresh token is refused from now on (simplejwt TokenBlacklistView)',
  })
  @ApiBody({ type: TokenRefreshDto })
  @ApiOkResponse({ description: '{}' })
  @ApiUnauthorizedResponse({
    description: '{"detail":"Token is invalid or expired","code":"token_not_valid"}',
  })
  async blacklist(@Body() body: RequestInput): Promise<object> {
    const { values, errors } = await validateInput(body.read(), TOKEN_REFRESH_FIELDS, {
      partial: false,
      existingIds: noRelations,
    });
    if (isFieldErrors(errors)) throw validationError(errors);
    await this.tokens.blacklistRefresh(values.refresh as string);
    return {};
  }

  @All()
  @ApiExcludeEndpoint()
  obtainOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Token Obtain Pair', postActions(TOKEN_OBTAIN_INFO));
  }

  @All('refresh')
  @ApiExcludeEndpoint()
  refreshOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Token Refresh', postActions(TOKEN_REFRESH_INFO));
  }

  @All('blacklist')
  @ApiExcludeEndpoint()
  blacklistOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Token Blacklist', postActions(TOKEN_REFRESH_INFO));
  }
}
