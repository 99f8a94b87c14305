import { All, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal } from '@fieldops/auth';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { type Principal } from '../auth/tokens.service';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, filterError } from '../drf/filters';
import { parseId } from '../drf/resource-routes';
import { pagedEnvelope, pageRequest, parseQuery, queryValue } from '../drf/pagination';
import { Body, type RequestInput } from '../drf/request-input';
import {
  DETAIL_METHODS,
  LIST_METHODS,
  otherMethod,
  postActions,
  putActions,
  ROOT_METHODS,
  TOKEN_METHODS,
} from '../drf/routes';
import { type Role, ROLES } from './role';
import {
  CurrentUserDto,
  PASSWORD_FIELDS,
  PasswordDto,
  USER_CREATE_INFO,
  USER_UPDATE_INFO,
  UserCreateDto,
  UserDto,
  UserPageDto,
  UserUpdateDto,
} from './dto/user.dto';
import { serializerInfo } from '../drf/metadata';
import { USER_KINDS, type UserKind, UsersService } from './users.service';
import { ApiPageQueries } from '../drf/page-queries.decorator';

const PASSWORD_INFO = serializerInfo(PASSWORD_FIELDS, ['password']);

/** The accounts: supervisors list, create, change (role, active), delete users and reset passwords. */
@ApiTags('users')
@ApiBearerAuth()
@ApiForbiddenResponse({
  description: 'Supervisors only: {"detail":"You do not have permission to perform this action."}',
})
@InspectorsMay('none')
@Controller('api/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List people (paged, ordered by id; supervisors only); ?kind=service lists service accounts',
  })
  @ApiPageQueries()
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive match on the username.' })
  @ApiQuery({ name: 'role', required: false, enum: ROLES })
  @ApiQuery({
    name: 'kind',
    required: false,
    enum: USER_KINDS,
    description:
      'person (the default: people only) or service (the service accounts, INSPECTION_SERVICE_ACCOUNTS).',
  })
  @ApiOkResponse({ type: UserPageDto })
  async list(@Req() request: Request): Promise<unknown> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const errors: FieldErrors = {};
    const filters = {
      search: queryValue(query, 'search') || undefined,
      role: choiceFilter(queryValue(query, 'role'), 'role', ROLES, errors) as Role | undefined,
      kind: choiceFilter(queryValue(query, 'kind'), 'kind', USER_KINDS, errors) as UserKind | undefined,
    };
    filterError(errors);
    const { count, page, results } = await this.users.page(filters, wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }

  @Post()
  @ApiOperation({ summary: 'Create a user (role defaults to inspector; supervisors only)' })
  @ApiBody({ type: UserCreateDto })
  @ApiCreatedResponse({ type: UserDto })
  async create(@Body() body: RequestInput, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    return await this.users.createFromInput(() => body.read(), principal);
  }

  @Get('me')
  @InspectorsMay('read')
  @ApiOperation({ summary: 'The signed-in user (any role)' })
  @ApiOkResponse({ type: CurrentUserDto })
  async me(@CurrentPrincipal() principal: Principal): Promise<unknown> {
    return await this.users.me(principal.userId);
  }

  @Post('me/sign_out_everywhere')
  @InspectorsMay('read-and-create')
  @ApiOperation({
    summary:
      'Sign out everywhere (any role): every access and refresh token of the signed-in user issued until now is refused (401 token_not_valid)',
  })
  @HttpCode(204)
  @ApiNoContentResponse()
  async signOutEverywhere(@CurrentPrincipal() principal: Principal): Promise<void> {
    await this.users.revokeTokens(principal.userId, undefined, principal);
  }

  @All('me/sign_out_everywhere')
  @InspectorsMay('read-and-create')
  @ApiExcludeEndpoint()
  async signOutEverywhereOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Sign Out Everywhere');
  }

  @All('me')
  @InspectorsMay('read')
  @ApiExcludeEndpoint()
  async meOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'User Me');
  }

  @All()
  @ApiExcludeEndpoint()
  async listOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, LIST_METHODS, 'User List', postActions(USER_CREATE_INFO));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a user' })
  @ApiOkResponse({ type: UserDto })
  async findOne(@Param('id') id: string): Promise<unknown> {
    return await this.users.findOne(parseId(id));
  }

  @Put(':id')
  @ApiOperation({ summary: "Replace a user's role and activity" })
  @ApiBody({ type: UserUpdateDto })
  @ApiOkResponse({ type: UserDto })
  async replace(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @CurrentPrincipal() principal: Principal,
  ): Promise<unknown> {
    return await this.users.update(parseId(id), () => body.read(), false, principal);
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      "Change a user's role or activity (refused when no active supervisor would remain, and for a service account)",
  })
  @ApiBody({ type: UserUpdateDto, description: 'Any subset of the fields.' })
  @ApiOkResponse({ type: UserDto })
  async modify(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @CurrentPrincipal() principal: Principal,
  ): Promise<unknown> {
    return await this.users.update(parseId(id), () => body.read(), true, principal);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a user (refused when no active supervisor would remain; a service account: 403)',
  })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.users.remove(parseId(id), principal);
  }

  @Post(':id/set_password')
  @ApiOperation({ summary: "Set a user's password" })
  @ApiBody({ type: PasswordDto })
  @HttpCode(204)
  @ApiNoContentResponse()
  async setPassword(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.users.setPassword(parseId(id), () => body.read(), principal);
  }

  @All(':id/set_password')
  @ApiExcludeEndpoint()
  async setPasswordOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Set Password', postActions(PASSWORD_INFO));
  }

  @All(':id')
  @ApiExcludeEndpoint()
  async detailOther(@Param('id') id: string, @Req() request: Request): Promise<unknown> {
    const actions = putActions(USER_UPDATE_INFO, () => this.users.findOne(parseId(id)));
    return otherMethod(request, DETAIL_METHODS, 'User Instance', actions);
  }
}
