import { All, Controller, Delete, Get, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { type Request, type Response } from 'express';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { choiceFilter, dateTimeFilter, filterError, integerFilter } from '../drf/filters';
import { parseId } from '../drf/resource-routes';
import { sendJson } from '../drf/json-renderer';
import {
  pageCount,
  pageEnvelope,
  pageLinks,
  pageRequest,
  parseQuery,
  queryValue,
  requestOrigin,
} from '../drf/pagination';
import { Body, type RequestInput } from '../drf/request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from '../drf/routes';
import { STATUSES } from './check-record.entity';
import {
  CHECK_RECORD_INFO,
  CheckRecordDto,
  CheckRecordInputDto,
  CheckRecordMultipartDto,
  CheckRecordPageDto,
} from './dto/check-record.dto';
import { RecordsService } from './records.service';

const mediaBase = (request: Request): string => `${requestOrigin(request)}/media/`;

const WRITE_BODY = {
  schema: {
    oneOf: [{ $ref: getSchemaPath(CheckRecordInputDto) }, { $ref: getSchemaPath(CheckRecordMultipartDto) }],
  },
  description:
    'JSON (photo and attachment are read-only there and ignored), or multipart/form-data with the fields as form fields and the files as parts named "photo" and "attachment".',
};

@ApiTags('records')
@ApiBearerAuth()
@ApiExtraModels(CheckRecordInputDto, CheckRecordMultipartDto)
@Controller('api/records')
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly environment: InspectionApiEnvironment,
  ) {}

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
  async list(@Req() request: Request, @Res() response: Response): Promise<void> {
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
    const { count, page, results } = await this.records.page(mediaBase(request), filters, wanted);
    const links = pageLinks(request, query, page, pageCount(count, wanted.size));
    sendJson(response, 200, pageEnvelope(count, links, results));
  }

  @Post()
  @ApiOperation({ summary: 'Create a check record (JSON, or multipart/form-data with photo / attachment)' })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody(WRITE_BODY)
  @ApiCreatedResponse({ type: CheckRecordDto })
  @ApiPayloadTooLargeResponse({
    description: 'A file over its limit (INSPECTION_MAX_PHOTO_BYTES / _ATTACHMENT_BYTES).',
  })
  async create(
    @Req() request: Request,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    sendJson(
      response,
      201,
      await this.records.create(
        mediaBase(request),
        () => body.read(),
        () => body.files(),
      ),
    );
  }

  @All()
  @ApiExcludeEndpoint()
  async listOther(@Req() request: Request, @Res() response: Response): Promise<void> {
    await otherMethod(request, response, LIST_METHODS, 'Check Record List', postActions(CHECK_RECORD_INFO));
  }

  @Get(':id')
  @ApiOkResponse({ type: CheckRecordDto })
  async findOne(@Req() request: Request, @Param('id') id: string, @Res() response: Response): Promise<void> {
    sendJson(response, 200, await this.records.findOne(mediaBase(request), parseId(id)));
  }

  @Put(':id')
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody(WRITE_BODY)
  @ApiOkResponse({ type: CheckRecordDto })
  async replace(
    @Req() request: Request,
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    const record = await this.records.update(
      mediaBase(request),
      parseId(id),
      () => body.read(),
      () => body.files(),
      false,
    );
    sendJson(response, 200, record);
  }

  @Patch(':id')
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody(WRITE_BODY)
  @ApiOkResponse({ type: CheckRecordDto })
  async modify(
    @Req() request: Request,
    @Param('id') id: string,
    @Body() body: RequestInput,
    @Res() response: Response,
  ): Promise<void> {
    const record = await this.records.update(
      mediaBase(request),
      parseId(id),
      () => body.read(),
      () => body.files(),
      true,
    );
    sendJson(response, 200, record);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a check record and its files' })
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Res() response: Response): Promise<void> {
    await this.records.remove(parseId(id));
    sendJson(response, 204);
  }

  @All(':id')
  @ApiExcludeEndpoint()
  async detailOther(
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const actions = putActions(CHECK_RECORD_INFO, () =>
      this.records.findOne(mediaBase(request), parseId(id)),
    );
    await otherMethod(request, response, DETAIL_METHODS, 'Check Record Instance', actions);
  }
}
