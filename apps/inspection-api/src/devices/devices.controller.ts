import { All, Controller, Delete, Get, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request, type Response } from 'express';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { parseId } from '../common/ids';
import { sendJson } from '../common/json-response';
import {
  rawPageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  pageCount,
} from '../common/pagination';
import { Body, type RequestInput } from '../common/request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from '../common/routes';
import { DevicesService } from './devices.service';
import { DEVICE_INFO, DeviceDto, DeviceInputDto, DevicePageDto } from './dto/device.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('api/devices')
export class DevicesController {
  constructor(
    private readonly devices: DevicesService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List devices (paged, ordered by id)' })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, or "last".' })
  @ApiQuery({ name: 'page_size', required: false, type: Number, description: 'Default 20, at most 100.' })
  @ApiQuery({ name: 'group', required: false, description: 'Exact group.' })
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive match on name or code.' })
  @ApiOkResponse({ type: DevicePageDto })
  async list(@Req() request: Request, @Res() response: Response): Promise<void> {
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
    sendJson(response, 200, rawPageEnvelope(count, links, results));
  }

  @Post()
  @ApiOperation({ summary: 'Create a device' })
  @ApiBody({ type: DeviceInputDto })
  @ApiCreatedResponse({ type: DeviceDto })
  async create(@Body() body: RequestInput, @Res() response: Response): Promise<void> {
    sendJson(response, 201, await this.devices.create(() => body.read()));
  }

  @All()
  @ApiExcludeEndpoint()
  async listOther(@Req() request: Request, @Res() response: Response): Promise<void> {
    await otherMethod(request, response, LIST_METHODS, 'Device List', postActions(DEVICE_INFO));
  }

  @Get(':id')
  @ApiOkResponse({ type: DeviceDto })
  async findOne(@Param('id') id: string, @Res() response: Response): Promise<void> {
    sendJson(response, 200, await this.devices.findOne(parseId(id)));
  }

  @Put(':id')
  @ApiBody({ type: DeviceInputDto })
  @ApiOkResponse({ type: DeviceDto })
  async replace(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.devices.update(parseId(id), () => body.read(), false));
  }

  @Patch(':id')
  @ApiBody({ type: DeviceInputDto, description: 'Any subset of the fields.' })
  @ApiOkResponse({ type: DeviceDto })
  async modify(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.devices.update(parseId(id), () => body.read(), true));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a device with its items and records (plans lose it from their devices)' })
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Res() response: Response): Promise<void> {
    await this.devices.remove(parseId(id));
    sendJson(response, 204);
  }

  @All(':id')
  @ApiExcludeEndpoint()
  async detailOther(
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const actions = putActions(DEVICE_INFO, () => this.devices.findOne(parseId(id)));
    await otherMethod(request, response, DETAIL_METHODS, 'Device Instance', actions);
  }
}
