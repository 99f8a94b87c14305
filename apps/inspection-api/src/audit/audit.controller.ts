import { All, Controller, Get, Param, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, dateTimeFilter, filterError, integerFilter } from '../drf/filters';
import { pagedEnvelope, pageRequest, parseQuery, queryValue } from '../drf/pagination';
import { parseId } from '../drf/resource-routes';
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { AUDIT_EVENTS, AUDIT_RESOURCES } from './audit-resources';
import { type AuditFilters, AuditService } from './audit.service';
import { AuditEntryDto, AuditPageDto } from './dto/audit-entry.dto';
import { ApiPageQueries } from '../drf/page-queries.decorator';

/**
 * The audit trail, read-only (supervisors): a list and a detail that answer GET, HEAD and OPTIONS; any write is
 * 405 (DRF's ReadOnlyModelViewSet).
 */
@ApiTags('audit')
@ApiBearerAuth()
@ApiForbiddenResponse({
  description: 'Inspectors: {"detail":"You do not have permission to perform this action."}',
})
@InspectorsMay('none')
@Controller('api/audit')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'The audit trail (newest first): who changed which device, item, plan, record, action or user, when and how',
  })
  @ApiPageQueries()
  @ApiQuery({ name: 'resource', required: false, enum: AUDIT_RESOURCES })
  @ApiQuery({ name: 'resource_id', required: false, type: Number, description: "The resource's id." })
  @ApiQuery({ name: 'actor', required: false, type: Number, description: "The acting user's id." })
  @ApiQuery({ name: 'event', required: false, enum: AUDIT_EVENTS })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'ISO 8601 date or date-time: entries at or after it.',
  })
  @ApiQuery({ name: 'until', required: false, description: 'ISO 8601 date or date-time: entries before it.' })
  @ApiOkResponse({ type: AuditPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const { count, page, results } = await this.audit.page(auditFilters(query), wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }

  @All()
  @ApiExcludeEndpoint()
  listOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Audit Entry List');
  }

  @Get(':id')
  @ApiOperation({ summary: 'One audit entry' })
  @ApiOkResponse({ type: AuditEntryDto })
  findOne(@Param('id') id: string): Promise<unknown> {
    return this.audit.findOne(parseId(id));
  }

  @All(':id')
  @ApiExcludeEndpoint()
  detailOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Audit Entry Instance');
  }
}

/** The trail's filters (django-filter's messages). */
function auditFilters(query: Map<string, string[]>): AuditFilters {
  const errors: FieldErrors = {};
  const filters: AuditFilters = {
    resource: choiceFilter(queryValue(query, 'resource'), 'resource', AUDIT_RESOURCES, errors),
    resource_id: integerFilter(queryValue(query, 'resource_id'), 'resource_id', errors),
    actor: integerFilter(queryValue(query, 'actor'), 'actor', errors),
    event: choiceFilter(queryValue(query, 'event'), 'event', AUDIT_EVENTS, errors),
    since: dateTimeFilter(queryValue(query, 'since'), 'since', errors),
    until: dateTimeFilter(queryValue(query, 'until'), 'until', errors),
  };
  filterError(errors);
  return filters;
}
