import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { booleanFilter } from '../drf/filters';
import { pageCount, pageEnvelope, pageLinks, pageRequest, parseQuery, queryValue } from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import { CHECK_PLAN_INFO, CheckPlanDto, CheckPlanInputDto, CheckPlanPageDto } from './dto/check-plan.dto';
import { PlansService } from './plans.service';
import { ApiPageQueries } from '../drf/page-queries.decorator';

@ApiTags('plans')
@ApiBearerAuth()
@Controller('api/plans')
export class PlansController extends ResourceRoutes({
  name: 'Check Plan',
  info: CHECK_PLAN_INFO,
  representation: CheckPlanDto,
  input: CheckPlanInputDto,
  removeSummary:
    'Delete a check plan: it is archived (404 from then on, left out of lists and due checks); its records keep referring to it',
}) {
  constructor(
    private readonly plans: PlansService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(plans);
  }

  @Get()
  @ApiOperation({ summary: 'List check plans (paged, ordered by id)' })
  @ApiPageQueries()
  @ApiQuery({ name: 'active', required: false, type: Boolean })
  @ApiOkResponse({ type: CheckPlanPageDto })
  async list(@Req() request: Request): Promise<object> {
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
    return pageEnvelope(count, links, results);
  }
}
