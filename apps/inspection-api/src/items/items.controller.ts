import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Request } from 'express';
import { filterError } from '../drf/filters';
import { parseQuery, queryValue } from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import { CHECK_ITEM_INFO, CheckItemDto, CheckItemInputDto } from './dto/check-item.dto';
import { ItemsService } from './items.service';
import { integerFilter } from '../drf/filters';

@ApiTags('items')
@ApiBearerAuth()
@Controller('api/items')
export class ItemsController extends ResourceRoutes({
  name: 'Check Item',
  info: CHECK_ITEM_INFO,
  representation: CheckItemDto,
  input: CheckItemInputDto,
  removeSummary:
    'Delete a check item: it is archived (404 from then on, left out of lists and due checks); its records keep referring to it',
}) {
  constructor(private readonly items: ItemsService) {
    super(items);
  }

  @Get()
  @ApiOperation({ summary: 'List every check item (a bare array, no paging), ordered by id' })
  @ApiQuery({ name: 'device', required: false, type: Number, description: 'Only the items of this device.' })
  @ApiOkResponse({ type: [CheckItemDto] })
  async list(@Req() request: Request): Promise<unknown> {
    const query = parseQuery(request);
    const errors = {};
    const device = integerFilter(queryValue(query, 'device'), 'device', errors);
    filterError(errors);
    return this.items.list(device);
  }
}
