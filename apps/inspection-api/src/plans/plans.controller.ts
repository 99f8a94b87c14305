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
import { booleanFilter } from '../common/filters';
import { parseId } from '../common/ids';
import { sendJson } from '../common/json-response';
import {
  pageCount,
  pageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
} from '../common/pagination';
import { Body, type RequestInput } from '../common/request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from '../common/routes';
import { CHECK_PLAN_INFO, CheckPlanDto, CheckPlanInputDto, CheckPlanPageDto } from './dto/check-plan.dto';
import { PlansService } from './plans.service';

@ApiTags('plans')
@ApiBearerAuth()
@Controller('api/plans')
export class PlansController {
  constructor(
    private readonly plans: PlansService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List check plans (paged, ordered by id)' })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, or "last".' })
  @ApiQuery({ name: 'page_size', required: false, type: Number, description: 'Default 20, at most 100.' })
  @ApiQuery({ name: 'active', required: false, type: Boolean })
  @ApiOkResponse({ type: CheckPlanPageDto })
  async list(@Req() request: Request, @Res() response: Response): Promise<void> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const { count, page, results } = await this.plans.page(
      booleanFilter(queryValue(query, 'active')),
      wanted,
    );
    const links = pageLinks(request, query, page, pageCount(count, wanted.size));
    sendJson(response, 200, pageEnvelope(count, links, results));
  }

  @Post()
  @ApiBody({ type: CheckPlanInputDto })
  @ApiCreatedResponse({ type: CheckPlanDto })
  async create(@Body() body: RequestInput, @Res() response: Response): Promise<void> {
    sendJson(response, 201, await this.plans.create(() => body.read()));
  }

  @All()
  @ApiExcludeEndpoint()
  async listOther(@Req() request: Request, @Res() response: Response): Promise<void> {
    await otherMethod(request, response, LIST_METHODS, 'Check Plan List', postActions(CHECK_PLAN_INFO));
  }

  @Get(':id')
  @ApiOkResponse({ type: CheckPlanDto })
  async findOne(@Param('id') id: string, @Res() response: Response): Promise<void> {
    sendJson(response, 200, await this.plans.findOne(parseId(id)));
  }

  @Put(':id')
  @ApiBody({ type: CheckPlanInputDto })
  @ApiOkResponse({ type: CheckPlanDto })
  async replace(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.plans.update(parseId(id), () => body.read(), false));
  }

  @Patch(':id')
  @ApiBody({ type: CheckPlanInputDto, description: 'Any subset of the fields.' })
  @ApiOkResponse({ type: CheckPlanDto })
  async modify(
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(response, 200, await this.plans.update(parseId(id), () => body.read(), true));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a check plan (records keep existing with plan null)' })
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Res() response: Response): Promise<void> {
    await this.plans.remove(parseId(id));
    sendJson(response, 204);
  }

  @All(':id')
  @ApiExcludeEndpoint()
  async detailOther(
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const actions = putActions(CHECK_PLAN_INFO, () => this.plans.findOne(parseId(id)));
    await otherMethod(request, response, DETAIL_METHODS, 'Check Plan Instance', actions);
  }
}
