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
import { filterError } from '../common/filters';
import { parseId } from '../common/ids';
import { sendJson } from '../common/json-response';
import { parseQuery, queryValue } from '../common/pagination';
import { Body, type RequestInput } from '../common/request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from '../common/routes';
import { CHECK_ITEM_INFO, CheckItemDto, CheckItemInputDto } from './dto/check-item.dto';
import { ItemsService } from './items.service';
import { integerFilter } from '../common/filters';

@ApiTags('items')
@ApiBearerAuth()
@Controller('api/items')
export class ItemsController {
  constructor(private readonly items: ItemsService) {}

  @Get()
  @ApiOperation({ summary: 'List every check item (a bare array, no paging), ordered by id' })
  @ApiQuery({ name: 'device', required: false, type: Number, description: 'Only the items of this device.' })
  @ApiOkResponse({ type: [CheckItemDto] })
  async list(@Req() request: Request, @Res() response: Response): Promise<void> {
    const query = parseQuery(request);
    const errors = {};
    const device = integerFilter(queryValue(query, 'device'), 'device', errors);
    filterError(errors);
    sendJson(response, 200, await this.items.list(device));
  }

  @Post()
  @ApiBody({ type: CheckItemInputDto })
  @ApiCreatedResponse({ type: CheckItemDto })
  async create(@Body() body: RequestInput, @Res() response: Response): Promise<void> {
    sendJson(response, 201, await this.items.create(() => body.read()));
  }

  @All()
  @ApiExcludeEndpoint()
  async listOther(@Req() request: Request, @Res() response: Response): Promise<void> {
    await otherMethod(request, response, LIST_METHODS, 'Check Item List', postActions(CHECK_ITEM_INFO));
  }

  @Get(':id')
  @ApiOkResponse({ type: CheckItemDto })
  async findOne(@Param('id') id: string, @Res() response: Response): Promise<void> {
    sendJson(response, 200, await this.items.findOne(parseId(id)));
  }

  @Put(':id')
  @ApiBody({ type: CheckItemInputDto })
  @ApiOkResponse({ type: CheckItemDto })
  async replace(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.items.update(parseId(id), () => body.read(), false));
  }

  @Patch(':id')
  @ApiBody({ type: CheckItemInputDto, description: 'Any subset of the fields.' })
  @ApiOkResponse({ type: CheckItemDto })
  async modify(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.items.update(parseId(id), () => body.read(), true));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a check item (records keep existing with item null)' })
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Res() response: Response): Promise<void> {
    await this.items.remove(parseId(id));
    sendJson(response, 204);
  }

  @All(':id')
  @ApiExcludeEndpoint()
  async detailOther(
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const actions = putActions(CHECK_ITEM_INFO, () => this.items.findOne(parseId(id)));
    await otherMethod(request, response, DETAIL_METHODS, 'Check Item Instance', actions);
  }
}
