import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, dateTimeFilter, filterError, integerFilter } from '../drf/filters';
import {
  pageCount,
  pageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  requestOrigin,
} from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import { mediaUrlBase } from '../media/media-url';
import { STATUSES } from './check-record.entity';
import {
  CHECK_RECORD_INFO,
  CheckRecordDto,
  CheckRecordInputDto,
  CheckRecordMultipartDto,
  CheckRecordPageDto,
} from './dto/check-record.dto';
import { RecordsService } from './records.service';

@ApiTags('records')
@ApiBearerAuth()
@InspectorsMay('read-and-create')
@Controller('api/records')
export class RecordsController extends ResourceRoutes({
  name: 'Check Record',
  info: CHECK_RECORD_INFO,
  representation: CheckRecordDto,
  input: CheckRecordInputDto,
  createSummary: 'Create a check record (JSON, or multipart/form-data with photo / attachment)',
  removeSummary: 'Delete a check record and its files',
  uploads: {
    multipart: CheckRecordMultipartDto,
    description:
      'JSON (photo and attachment are read-only there and ignored), or multipart/form-data with the fields as form fields and the files as parts named "photo" and "attachment".',
    tooLarge: 'A file over its limit (INSPECTION_MAX_PHOTO_BYTES / _ATTACHMENT_BYTES).',
  },
}) {
  constructor(
    private readonly records: RecordsService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(records);
  }

  @Get()
  @ApiOperation({ summary: 'List check records (paged, ordered by id)' })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, or "last".' })
  @ApiQuery({ name: 'page_size', required: false, type: Number, description: 'Default 20, at most 100.' })
  @ApiQuery({ name: 'device', required: false, type: Number })
  @ApiQuery({ name: 'plan', required: false, type: Number })
  @ApiQuery({ name: 'item', required: false, type: Number })
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  @ApiQuery({
    name: 'checked_after',
    required: false,
    description: 'ISO 8601; checked_at >= value (UTC if no zone).',
  })
  @ApiQuery({
    name: 'checked_before',
    required: false,
    description: 'ISO 8601; checked_at <= value (UTC if no zone).',
  })
  @ApiOkResponse({ type: CheckRecordPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const errors: FieldErrors = {};
    const filters = {
      device: integerFilter(queryValue(query, 'device'), 'device', errors),
      plan: integerFilter(queryValue(query, 'plan'), 'plan', errors),
      item: integerFilter(queryValue(query, 'item'), 'item', errors),
      status: choiceFilter(queryValue(query, 'status'), 'status', STATUSES, errors),
      checkedAfter: dateTimeFilter(queryValue(query, 'checked_after'), 'checked_after', errors),
      checkedBefore: dateTimeFilter(queryValue(query, 'checked_before'), 'checked_before', errors),
    };
    filterError(errors);
    const { count, page, results } = await this.records.page(
      mediaUrlBase(requestOrigin(request)),
      filters,
      wanted,
    );
    const links = pageLinks(request, query, page, pageCount(count, wanted.size));
    return pageEnvelope(count, links, results);
  }
}
