import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { pagedEnvelope, pageRequest, parseQuery } from '../drf/pagination';
import { parseId, ResourceRoutes } from '../drf/resource-routes';
import {
  WEBHOOK_INFO,
  WebhookDeliveryPageDto,
  WebhookDto,
  WebhookInputDto,
  WebhookPageDto,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { ApiPageQueries } from '../drf/page-queries.decorator';

/** Webhook endpoints and their delivery logs (supervisors; docs/protocols/events-and-webhooks.md). */
@ApiTags('webhooks')
@ApiBearerAuth()
@InspectorsMay('none')
@Controller('api/webhooks')
export class WebhooksController extends ResourceRoutes({
  name: 'Webhook',
  info: WEBHOOK_INFO,
  representation: WebhookDto,
  input: WebhookInputDto,
  createSummary: 'Register a webhook endpoint (its secret is in this answer only)',
  removeSummary: 'Delete a webhook endpoint and its delivery log',
}) {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(webhooks);
  }

  private wanted(query: Map<string, string[]>) {
    return pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
  }

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints (paged, ordered by id)' })
  @ApiPageQueries()
  @ApiOkResponse({ type: WebhookPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = this.wanted(query);
    const { count, page, results } = await this.webhooks.page(wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }

  /** Before the detail routes (a subclass's routes are registered first). */
  @Get(':id/deliveries')
  @ApiOperation({ summary: "An endpoint's delivery log: status, attempts, last error (paged, newest first)" })
  @ApiPageQueries()
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  async deliveries(@Param('id') id: string, @Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = this.wanted(query);
    const { count, page, results } = await this.webhooks.deliveries(parseId(id), wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }
}
