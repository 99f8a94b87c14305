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
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, dateFilter, filterError, integerFilter } from '../drf/filters';
import { parseQuery, queryValue } from '../drf/pagination';
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { ActionStatisticsDto } from './dto/action-statistics.dto';
import { RecordStatisticsDto } from './dto/record-statistics.dto';
import { INTERVALS, type StatisticsInterval, StatisticsService } from './statistics.service';

/** Counts for the console's charts. */
@ApiTags('statistics')
@ApiBearerAuth()
@Controller('api/statistics')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  @Get('records')
  @ApiOperation({
    summary: 'Records per day or ISO week and status (one SQL statement; days of INSPECTION_TIME_ZONE)',
  })
  @ApiQuery({ name: 'interval', required: false, enum: INTERVALS, description: 'Default day.' })
  @ApiQuery({
    name: 'date_from',
    required: false,
    description: 'YYYY-MM-DD, inclusive; default date_to − 29 days.',
  })
  @ApiQuery({ name: 'date_to', required: false, description: 'YYYY-MM-DD, inclusive; default today.' })
  @ApiQuery({ name: 'plan', required: false, type: Number })
  @ApiQuery({ name: 'group', required: false, description: 'Exact device group.' })
  @ApiQuery({ name: 'device', required: false, type: Number })
  @ApiOkResponse({ type: RecordStatisticsDto })
  records(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const errors: FieldErrors = {};
    const filters = {
      interval: (choiceFilter(queryValue(query, 'interval'), 'interval', INTERVALS, errors) ??
        'day') as StatisticsInterval,
      dateFrom: dateFilter(queryValue(query, 'date_from'), 'date_from', errors),
      dateTo: dateFilter(queryValue(query, 'date_to'), 'date_to', errors),
      plan: integerFilter(queryValue(query, 'plan'), 'plan', errors),
      group: queryValue(query, 'group') || undefined,
      device: integerFilter(queryValue(query, 'device'), 'device', errors),
    };
    filterError(errors);
    return this.statistics.records(filters);
  }

  @All('records')
  @ApiExcludeEndpoint()
  recordsOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Record Statistics');
  }

  @Get('actions')
  @ApiOperation({
    summary:
      "Corrective actions by status, the overdue ones (due before today in INSPECTION_TIME_ZONE) and each assignee's load",
  })
  @ApiQuery({ name: 'device', required: false, type: Number })
  @ApiQuery({ name: 'group', required: false, description: 'Exact device group.' })
  @ApiOkResponse({ type: ActionStatisticsDto })
  actions(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const errors: FieldErrors = {};
    const filters = {
      device: integerFilter(queryValue(query, 'device'), 'device', errors),
      group: queryValue(query, 'group') || undefined,
    };
    filterError(errors);
    return this.statistics.actions(filters);
  }

  @All('actions')
  @ApiExcludeEndpoint()
  actionsOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Action Statistics');
  }
}
