import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { ApiPageQueries } from '../drf/page-queries.decorator';
import { pagedEnvelope, pageRequest, parseQuery } from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import {
  REPORT_SUBSCRIPTION_INFO,
  ReportSubscriptionDto,
  ReportSubscriptionInputDto,
  ReportSubscriptionPageDto,
} from './dto/report-subscription.dto';
import { ReportSubscriptionsService } from './report-subscriptions.service';

/** Monthly report subscriptions (supervisors; docs/protocols/notifications.md, "Monthly reports by email"). */
@ApiTags('report-subscriptions')
@ApiBearerAuth()
@InspectorsMay('none')
@Controller('api/report-subscriptions')
export class ReportSubscriptionsController extends ResourceRoutes({
  name: 'Report Subscription',
  info: REPORT_SUBSCRIPTION_INFO,
  representation: ReportSubscriptionDto,
  input: ReportSubscriptionInputDto,
  createSummary: "Subscribe a list of addresses to a plan's or a device's monthly PDF report",
  removeSummary: 'Delete a monthly report subscription (and its send log)',
}) {
  constructor(
    private readonly subscriptions: ReportSubscriptionsService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(subscriptions);
  }

  @Get()
  @ApiOperation({ summary: 'List monthly report subscriptions (paged, ordered by id)' })
  @ApiPageQueries()
  @ApiOkResponse({ type: ReportSubscriptionPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const { count, page, results } = await this.subscriptions.page(wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }
}
