import { All, Controller, Get, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type RawJson } from '../drf/json-renderer';
import {
  rawPageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  pageCount,
} from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { DevicesService } from './devices.service';
import { DEVICE_INFO, DeviceDto, DeviceInputDto, DevicePageDto } from './dto/device.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('api/devices')
export class DevicesController extends ResourceRoutes({
  name: 'Device',
  info: DEVICE_INFO,
  representation: DeviceDto,
  input: DeviceInputDto,
  createSummary: 'Create a device',
  removeSummary: 'Delete a device with its items and records (plans lose it from their devices)',
}) {
  constructor(
    private readonly devices: DevicesService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(devices);
  }

  @Get()
  @ApiOperation({ summary: 'List devices (paged, ordered by id)' })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, or "last".' })
  @ApiQuery({ name: 'page_size', required: false, type: Number, description: 'Default 20, at most 100.' })
  @ApiQuery({ name: 'group', required: false, description: 'Exact group.' })
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive match on name or code.' })
  @ApiOkResponse({ type: DevicePageDto })
  async list(@Req() request: Request): Promise<RawJson> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const filters = {
      group: queryValue(query, 'group') || undefined,
      search: queryValue(query, 'search') || undefined,
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
}
