import { All, applyDecorators, Controller, Get, Req, StreamableFile } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import {
  booleanFilter,
  choiceFilter,
  dateTimeFilter,
  filterError,
  integerFilter,
  orderingFilter,
} from '../drf/filters';
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
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { mediaUrlBase } from '../media/media-url';
import { STATUSES } from './check-record.entity';
import {
  CHECK_RECORD_INFO,
  CheckRecordDto,
  CheckRecordInputDto,
  CheckRecordMultipartDto,
  CheckRecordPageDto,
} from './dto/check-record.dto';
import { EXPORT_COLUMNS, RecordsExportService } from './records-export.service';
import { RECORD_ORDERING_COLUMNS, type RecordFilters, RecordsService } from './records.service';
import { ApiPageQueries } from '../drf/page-queries.decorator';

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
  idempotent: true,
}) {
  constructor(
    private readonly records: RecordsService,
    private readonly environment: InspectionApiEnvironment,
    private readonly exports: RecordsExportService,
  ) {
    super(records);
  }

  @Get()
  @ApiOperation({ summary: 'List check records (paged, newest first unless `ordering` says otherwise)' })
  @ApiPageQueries()
  @RecordFilterQueries()
  @ApiOkResponse({ type: CheckRecordPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const filters = recordFilters(query);
    const { count, page, results } = await this.records.page(
      mediaUrlBase(requestOrigin(request)),
      filters,
      wanted,
    );
    const links = pageLinks(request, query, page, pageCount(count, wanted.size));
    return pageEnvelope(count, links, results);
  }

  @Get('export.csv')
  @ApiOperation({
    summary: "Export the check records as CSV (the list's filters and ordering; streamed)",
    description: `Header row: ${EXPORT_COLUMNS.join(',')}. Photo and attachment are absolute URLs (empty when none).`,
  })
  @RecordFilterQueries()
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'text/csv; charset=utf-8, as an attachment named records.csv',
    schema: { type: 'string' },
  })
  async exportCsv(@Req() request: Request): Promise<StreamableFile> {
    const filters = recordFilters(parseQuery(request));
    const csv = await this.exports.csv(mediaUrlBase(requestOrigin(request)), filters);
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="records.csv"',
    });
  }

  @All('export.csv')
  @ApiExcludeEndpoint()
  exportOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Check Record Export');
  }
}

/** The records list's filters (also the export's). */
function recordFilters(query: Map<string, string[]>): RecordFilters {
  const errors: FieldErrors = {};
  const filters = {
    device: integerFilter(queryValue(query, 'device'), 'device', errors),
    plan: integerFilter(queryValue(query, 'plan'), 'plan', errors),
    item: integerFilter(queryValue(query, 'item'), 'item', errors),
    status: choiceFilter(queryValue(query, 'status'), 'status', STATUSES, errors),
    checkedBy: queryValue(query, 'checked_by') || undefined,
    checkedAfter: dateTimeFilter(queryValue(query, 'checked_after'), 'checked_after', errors),
    checkedBefore: dateTimeFilter(queryValue(query, 'checked_before'), 'checked_before', errors),
    outOfRange: booleanFilter(queryValue(query, 'out_of_range')),
    ordering: orderingFilter(queryValue(query, 'ordering'), Object.keys(RECORD_ORDERING_COLUMNS)),
  };
  filterError(errors);
  return filters;
}

function RecordFilterQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'device', required: false, type: Number }),
    ApiQuery({ name: 'plan', required: false, type: Number }),
    ApiQuery({ name: 'out_of_range', required: false, type: Boolean }),
    ApiQuery({ name: 'item', required: false, type: Number }),
    ApiQuery({ name: 'status', required: false, enum: STATUSES }),
    ApiQuery({ name: 'checked_by', required: false, description: 'Exact inspector username.' }),
    ApiQuery({
      name: 'checked_after',
      required: false,
      description: 'ISO 8601; checked_at >= value (UTC if no zone).',
    }),
    ApiQuery({
      name: 'checked_before',
      required: false,
      description: 'ISO 8601; checked_at <= value (UTC if no zone).',
    }),
    ApiQuery({
      name: 'ordering',
      required: false,
      description: `Comma-separated fields, "-" for descending (DRF's OrderingFilter; unknown fields are ignored): ${Object.keys(RECORD_ORDERING_COLUMNS).join(', ')}. Default -checked_at (newest first); ties by id in the last field's direction.`,
    }),
  );
}
