import { All, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { FastPath } from '@fieldops/platform';
import { type Request } from 'express';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type DrfRequest } from '../drf/drf-request';
import { type RawJson } from '../drf/json-renderer';
import {
  rawPageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  pageCount,
} from '../drf/pagination';
import { permissionDenied } from '../auth/role-access';
import { type Principal } from '../auth/tokens.service';
import { booleanFilter } from '../drf/filters';
import { parseId, ResourceRoutes } from '../drf/resource-routes';
import { otherMethod, ROOT_METHODS, TOKEN_METHODS } from '../drf/routes';
import { DevicesService } from './devices.service';
import { DEVICE_INFO, DeviceDto, DeviceInputDto, DevicePageDto } from './dto/device.dto';
import { ApiPageQueries } from '../drf/page-queries.decorator';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('api/devices')
export class DevicesController extends ResourceRoutes({
  name: 'Device',
  info: DEVICE_INFO,
  representation: DeviceDto,
  input: DeviceInputDto,
  createSummary: 'Create a device',
  removeSummary:
    'Delete a device: it is archived with its items (404 from then on, left out of lists, plans and due checks); its records and their files stay',
}) {
  constructor(
    private readonly devices: DevicesService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(devices);
  }

  @Get()
  @ApiOperation({ summary: 'List devices (paged, ordered by id)' })
  @ApiPageQueries()
  @ApiQuery({ name: 'group', required: false, description: 'Exact group.' })
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive match on name or code.' })
  @ApiQuery({
    name: 'archived',
    required: false,
    type: Boolean,
    description:
      'true: the archived (deleted) devices instead, each with its `archived_at` (supervisors only; 403 otherwise).',
  })
  @ApiOkResponse({ type: DevicePageDto })
  // The hot read of the console and the bench: also answered before Express (docs/decisions/hot-routes.md).
  @FastPath()
  async list(@Req() request: DrfRequest): Promise<RawJson> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const archived = booleanFilter(queryValue(query, 'archived')) === true;
    if (archived && (request as DrfRequest & { user?: Principal }).user?.role !== 'supervisor')
      throw permissionDenied();
    const filters = {
      group: queryValue(query, 'group') || undefined,
      search: queryValue(query, 'search') || undefined,
      archived,
    };
    const { count, page, results } = await this.devices.page(filters, wanted);
    const links = pageLinks(request, query, page, pageCount(count, wanted.size));
    return rawPageEnvelope(count, links, results);
  }

  /** Before the detail routes (a subclass's routes are registered first), so `groups` is not taken for an id. */
  @Get('groups')
  @ApiOperation({ summary: 'The distinct non-empty device groups, sorted (for group filters)' })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' }, example: ['boilers', 'pumps'] } })
  groups(): Promise<string[]> {
    return this.devices.groups();
  }

  @All('groups')
  @ApiExcludeEndpoint()
  groupsOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Device Groups');
  }

  /** Before the detail routes, like `groups`. Supervisors only (the role guard refuses an inspector's POST). */
  @Post(':id/restore')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore an archived device with the items archived with it (supervisors only)',
    description:
      'The device is in use again, in its plans. 404 unless it is archived; 400 {"code":[…]} when a device in use took its code.',
  })
  @ApiOkResponse({ type: DeviceDto })
  @ApiNotFoundResponse({ description: '{"detail":"Not found."}: no archived device with this id.' })
  @ApiForbiddenResponse({
    description: 'Inspectors: {"detail":"You do not have permission to perform this action."}',
  })
  restore(@Param('id') id: string, @Req() request: Request): Promise<RawJson> {
    return this.devices.restore(parseId(id), (request as Request & { user?: Principal }).user);
  }

  @All(':id/restore')
  @ApiExcludeEndpoint()
  restoreOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, TOKEN_METHODS, 'Device Restore');
  }
}
