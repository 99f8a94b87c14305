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
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, dateFilter, filterError, integerFilter } from '../drf/filters';
import { type RawJson } from '../drf/json-renderer';
import {
  pageCount,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  rawPageEnvelope,
} from '../drf/pagination';
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { DUE_STATUSES, type DueStatus } from './due-rules';
import { type DueFilters, DueService } from './due.service';
import { DuePageDto, DueSummaryDto } from './dto/due.dto';
import { ApiPageQueries } from '../drf/page-queries.decorator';

const DATE_QUERY = {
  name: 'date',
  required: false,
  description: 'YYYY-MM-DD; default today in the configured time zone (INSPECTION_TIME_ZONE).',
};

function dueFilters(query: Map<string, string[]>, errors: FieldErrors): DueFilters {
  return {
    date: dateFilter(queryValue(query, 'date'), 'date', errors),
    plan: integerFilter(queryValue(query, 'plan'), 'plan', errors),
    device: integerFilter(queryValue(query, 'device'), 'device', errors),
    group: queryValue(query, 'group') || undefined,
    assignee: integerFilter(queryValue(query, 'assignee'), 'assignee', errors),
  };
}

/** What is due: the checks of the active plans in their current period (rules: `due-rules.ts`, docs/protocols/inspection-api.md). */
@ApiTags('due')
@ApiBearerAuth()
@Controller('api/due')
export class DueController {
  constructor(
    private readonly due: DueService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Checks of the active plans with their due status (paged, by plan, device, item)',
  })
  @ApiQuery(DATE_QUERY)
  @ApiQuery({ name: 'status', required: false, enum: DUE_STATUSES })
  @ApiQuery({ name: 'plan', required: false, type: Number })
  @ApiQuery({ name: 'device', required: false, type: Number })
  @ApiQuery({ name: 'group', required: false, description: 'Exact device group.' })
  @ApiQuery({
    name: 'assignee',
    required: false,
    type: Number,
    description: 'The checks of the plans assigned to this user id, or to a team of theirs.',
  })
  @ApiPageQueries()
  @ApiOkResponse({ type: DuePageDto })
  async list(@Req() request: Request): Promise<RawJson> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const errors: FieldErrors = {};
    const filters = dueFilters(query, errors);
    filters.status = choiceFilter(queryValue(query, 'status'), 'status', DUE_STATUSES, errors) as
      DueStatus | undefined;
    filterError(errors);
    const { count, page, results } = await this.due.page(filters, wanted);
    return rawPageEnvelope(count, pageLinks(request, query, page, pageCount(count, wanted.size)), results);
  }

  @Get('summary')
  @ApiOperation({ summary: 'Due, overdue and done counts, in total and per active plan' })
  @ApiQuery(DATE_QUERY)
  @ApiQuery({ name: 'plan', required: false, type: Number })
  @ApiQuery({ name: 'device', required: false, type: Number })
  @ApiQuery({ name: 'group', required: false, description: 'Exact device group.' })
  @ApiQuery({
    name: 'assignee',
    required: false,
    type: Number,
    description: 'The plans and actions assigned to this user id, or to a team of theirs.',
  })
  @ApiOkResponse({ type: DueSummaryDto })
  async summary(@Req() request: Request): Promise<object> {
    const errors: FieldErrors = {};
    const filters = dueFilters(parseQuery(request), errors);
    filterError(errors);
    return this.due.summary(filters);
  }

  @All('summary')
  @ApiExcludeEndpoint()
  summaryOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Due Summary');
  }

  @All()
  @ApiExcludeEndpoint()
  listOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Due List');
  }
}
