import { All, Controller, Get, Param, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '@fieldops/platform';
import { type Request, type Response } from 'express';
import { type Principal } from '../auth/tokens.service';
import { addDays, type CalendarDate, toDayNumber } from '../calendar/calendar-date';
import { type FieldErrors } from '../drf/exceptions';
import { dateFilter, filterError } from '../drf/filters';
import { parseQuery, queryValue, requestOrigin } from '../drf/pagination';
import { parseId } from '../drf/resource-routes';
import { otherMethod, ROOT_METHODS } from '../drf/routes';
import { reportLanguage, REPORT_LANGUAGES, type ReportLanguage } from './report-text';
import {
  MAX_REPORT_DAYS,
  type ReportSubject,
  ReportsService,
  type ReportVerification,
} from './reports.service';

const LANG_QUERY = {
  name: 'lang',
  required: false,
  enum: REPORT_LANGUAGES,
  description:
    'The report language; without it, the first of Accept-Language the report is written in, else en.',
};
const PDF_RESPONSE = {
  description:
    'application/pdf, as an attachment; `X-Report-Id` carries the verification id printed on every page (GET /api/reports/{id}/).',
  schema: { type: 'string', format: 'binary' },
};

/** `?lang=` or Accept-Language (400 for a `lang` that is not a report language). */
function languageOf(request: Request, query: Map<string, string[]>, errors: FieldErrors): ReportLanguage {
  const lang = queryValue(query, 'lang');
  const language = reportLanguage(lang, request.headers['accept-language']);
  if (language) return language;
  errors.lang = [`Select a valid choice. ${lang} is not one of the available choices.`];
  return 'en';
}

/**
 * PDF reports (docs/protocols/inspection-api.md, "PDF reports"): of one record, of a plan's round and of a device's
 * history. Readable by everyone who may read the records they contain (inspectors and supervisors); each is stored
 * with a verification id that `GET /api/reports/{id}/` answers for.
 */
@ApiTags('reports')
@Controller('api')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('records/:id/report.pdf')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'PDF report of one check record (its item, photo and actions)' })
  @ApiQuery(LANG_QUERY)
  @ApiProduces('application/pdf')
  @ApiOkResponse(PDF_RESPONSE)
  async record(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const recordId = parseId(id);
    const query = parseQuery(request);
    const errors: FieldErrors = {};
    const language = languageOf(request, query, errors);
    filterError(errors);
    await this.send(await this.reports.record(recordId, language), language, request, response);
  }

  @Get('devices/:id/report.pdf')
  @ApiBearerAuth()
  @ApiOperation({
    summary: "PDF report of a device's history: its records from one date to another (at most 366 days)",
  })
  @ApiQuery({ name: 'from', required: false, description: 'YYYY-MM-DD; default 29 days before `to`.' })
  @ApiQuery({
    name: 'to',
    required: false,
    description: 'YYYY-MM-DD (included); default today in INSPECTION_TIME_ZONE.',
  })
  @ApiQuery(LANG_QUERY)
  @ApiProduces('application/pdf')
  @ApiOkResponse(PDF_RESPONSE)
  async device(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const deviceId = parseId(id);
    const query = parseQuery(request);
    const errors: FieldErrors = {};
    const language = languageOf(request, query, errors);
    const from = dateFilter(queryValue(query, 'from'), 'from', errors);
    const to = dateFilter(queryValue(query, 'to'), 'to', errors);
    filterError(errors);
    const end: CalendarDate = to ?? this.reports.today();
    const start: CalendarDate = from ?? addDays(end, -29);
    const days = toDayNumber(end) - toDayNumber(start) + 1;
    if (days < 1) errors.to = ['Enter a date on or after `from`.'];
    else if (days > MAX_REPORT_DAYS) errors.to = [`A report covers at most ${MAX_REPORT_DAYS} days.`];
    filterError(errors);
    await this.send(await this.reports.device(deviceId, start, end, language), language, request, response);
  }

  @Get('plans/:id/report.pdf')
  @ApiBearerAuth()
  @ApiOperation({
    summary: "PDF report of a plan's round: each of its checks in one period of its schedule, done or not",
  })
  @ApiQuery({
    name: 'date',
    required: false,
    description: "YYYY-MM-DD: the round is the plan's period that contains it; default today.",
  })
  @ApiQuery(LANG_QUERY)
  @ApiProduces('application/pdf')
  @ApiOkResponse(PDF_RESPONSE)
  async round(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const planId = parseId(id);
    const query = parseQuery(request);
    const errors: FieldErrors = {};
    const language = languageOf(request, query, errors);
    const date = dateFilter(queryValue(query, 'date'), 'date', errors);
    filterError(errors);
    const subject = await this.reports.round(planId, date ?? this.reports.today(), language);
    await this.send(subject, language, request, response);
  }

  /**
   * Streams the report. `HEAD` answers the headers a `GET` would (after the same 400/404 checks) without writing the
   * PDF or storing a report: no verification id is issued for a document nobody received.
   */
  private async send(subject: ReportSubject, language: ReportLanguage, request: Request, response: Response) {
    const headers = (filename: string) => {
      response.status(200);
      response.setHeader('Content-Type', 'application/pdf');
      response.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      response.setHeader('Content-Language', language);
      response.setHeader('Cache-Control', 'no-store');
    };
    if (request.method === 'HEAD') {
      headers(subject.filename);
      response.end();
      return;
    }
    const user = (request as Request & { user?: Principal }).user;
    await this.reports.write(
      subject,
      language,
      user?.username ?? '',
      requestOrigin(request),
      response,
      ({ id, filename }) => {
        headers(filename);
        response.setHeader('X-Report-Id', id);
        response.setHeader('Access-Control-Expose-Headers', 'Content-Disposition, X-Report-Id');
      },
    );
  }

  @Get('reports/:id')
  @Public()
  @ApiOperation({
    summary:
      'Verify a PDF report by the id printed on it: what it covered, who made it, when, and its SHA-256',
    description:
      'Public (the id is a random UUID only the report shows). `sha256` and `bytes` are null when the download was cut short.',
  })
  @ApiOkResponse({ description: 'The stored facts of the report.' })
  verify(@Param('id') id: string): Promise<ReportVerification> {
    return this.reports.verification(id);
  }

  @All(['records/:id/report.pdf', 'devices/:id/report.pdf', 'plans/:id/report.pdf'])
  @ApiExcludeEndpoint()
  other(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Report');
  }

  @All('reports/:id')
  @Public()
  @ApiExcludeEndpoint()
  otherVerify(@Req() request: Request): Promise<object> {
    return otherMethod(request, ROOT_METHODS, 'Report');
  }
}
