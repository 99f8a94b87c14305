import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, pipeline, type Readable, type Writable } from 'node:stream';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { isoTimestamp } from '../database/sql';
import { addDays, type CalendarDate, localDate, schedulePeriod, startOfDay } from '../due/due-rules';
import { type ScheduleUnit } from '../due/due-rules';
import { notFound } from '../drf/exceptions';
import { MediaStorage } from '../media/media-storage';
import {
  type ReportHeader,
  type ReportKind,
  type ReportRow,
  type ReportTotals,
  type RowPhoto,
} from './report-document';
import { downscalePhoto } from './report-photo';
import { recordRowsSql, type ReportStatement, roundRowsSql, totalsSql } from './report-sql';
import { type ReportLanguage, REPORT_TEXT } from './report-text';
import { ReportThread, ReportWriter } from './report-writer';

/** What a report covers, before it is written. */
export interface ReportSubject {
  kind: ReportKind;
  subjectId: number;
  /** The calendar days covered (in INSPECTION_TIME_ZONE). */
  period: { start: CalendarDate; end: CalendarDate };
  header: Omit<ReportHeader, 'kind' | 'generatedAt' | 'verificationId' | 'verifyUrl' | 'inspectors'>;
  rows: ReportStatement;
  /** The download's file name. */
  filename: string;
  /** The zone the period's days and the printed times are read in; default INSPECTION_TIME_ZONE. */
  timeZone?: string;
}

/** The stored facts of a report, as `GET /api/reports/{id}/` shows them. */
export interface ReportVerification {
  id: string;
  kind: ReportKind;
  record: number | null;
  device: number | null;
  plan: number | null;
  period_start: CalendarDate;
  period_end: CalendarDate;
  language: ReportLanguage;
  records: number;
  generated_by: string;
  generated_at: string;
  sha256: string | null;
  bytes: number | null;
}

/** The longest device history one report covers, in days. */
export const MAX_REPORT_DAYS = 366;

/**
 * Unread PDF bytes the report may hold before it waits for the client (pdfkit pushes whatever it writes; the row
 * loop waits here so that a slow client never makes the report buffer more than about this).
 */
const HIGH_WATER_BYTES = 1_048_576;

const site = (location: string, group: string): string => [location, group].filter(Boolean).join(' · ');

/** Resolves once `source` has fewer than HIGH_WATER_BYTES unread, or `destination` has closed. */
function room(source: Readable, destination: Writable): Promise<void> {
  if (source.readableLength <= HIGH_WATER_BYTES || destination.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      source.off('data', check);
      destination.off('close', done);
      resolve();
    };
    const check = (): void => {
      if (source.readableLength <= HIGH_WATER_BYTES) done();
    };
    source.on('data', check);
    destination.once('close', done);
  });
}

/**
 * PDF reports of one record, of a plan's round (its checks in one period) and of a device's history: the subject
 * is looked up first (404s and the totals), then a verification row is stored and the PDF is streamed to the
 * client: rows from a PostgreSQL cursor (100 at a time), photos read and downscaled one at a time, laid out in the
 * report worker thread (report-writer.ts), each page and image written out as soon as it is complete, and the writer
 * waiting for the client when it falls behind.
 */
@Injectable()
export class ReportsService implements OnModuleDestroy {
  /** The worker thread this application's reports are laid out in. */
  private readonly thread = new ReportThread();

  constructor(
    private readonly dataSource: DataSource,
    private readonly environment: InspectionApiEnvironment,
    private readonly media: MediaStorage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.thread.close();
  }

  get timeZone(): string {
    return this.environment.INSPECTION_TIME_ZONE;
  }

  today(): CalendarDate {
    return localDate(new Date(), this.timeZone);
  }

  /** The half-open interval of instants [start of `start`, start of the day after `end`) in the time zone. */
  private instants(
    start: CalendarDate,
    end: CalendarDate,
    timeZone = this.timeZone,
  ): { from: Date; to: Date } {
    return { from: startOfDay(start, timeZone), to: startOfDay(addDays(end, 1), timeZone) };
  }

  async record(id: number, language: ReportLanguage): Promise<ReportSubject> {
    const rows: Array<{
      code: string;
      name: string;
      location: string;
      group: string;
      plan: string | null;
      checked_at: Date;
    }> = await this.dataSource.query(
      `SELECT d."code", d."name", d."location", d."group", p."name" AS "plan", r."checked_at"
        FROM "check_records" r JOIN "devices" d ON d."id" = r."device_id"
        LEFT JOIN "check_plans" p ON p."id" = r."plan_id" WHERE r."id" = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound();
    const day = localDate(new Date(row.checked_at), this.timeZone);
    return {
      kind: 'record',
      subjectId: id,
      period: { start: day, end: day },
      header: {
        site: site(row.location, row.group),
        devices: `${row.code} ${row.name}`,
        plan: row.plan ?? '',
        period: day,
      },
      rows: recordRowsSql({ recordId: id }),
      filename: `record-${id}${language === 'zh-CN' ? '-zh-CN' : ''}.pdf`,
    };
  }

  async device(
    id: number,
    start: CalendarDate,
    end: CalendarDate,
    language: ReportLanguage,
    timeZone = this.timeZone,
  ) {
    const rows: Array<{ code: string; name: string; location: string; group: string; plans: string }> =
      await this.dataSource.query(
        `SELECT d."code", d."name", d."location", d."group",
          COALESCE((SELECT string_agg(p."name", ', ' ORDER BY p."name") FROM "check_plan_devices" pd
            JOIN "check_plans" p ON p."id" = pd."plan_id" AND p."archived_at" IS NULL WHERE pd."device_id" = d."id"), '') AS "plans"
        FROM "devices" d WHERE d."id" = $1`,
        [id],
      );
    const row = rows[0];
    if (!row) throw notFound();
    const { from, to } = this.instants(start, end, timeZone);
    const subject: ReportSubject = {
      kind: 'device',
      subjectId: id,
      period: { start, end },
      header: {
        site: site(row.location, row.group),
        devices: `${row.code} ${row.name}`,
        plan: row.plans,
        period: `${start} – ${end}`,
      },
      rows: recordRowsSql({ deviceId: id, from, to }),
      filename: `device-${id}-${start}-${end}${language === 'zh-CN' ? '-zh-CN' : ''}.pdf`,
      timeZone,
    };
    return subject;
  }

  /** A plan's round: its checks in the period of its schedule that contains `date`. */
  round(id: number, date: CalendarDate, language: ReportLanguage): Promise<ReportSubject> {
    return this.planReport(id, language, date);
  }

  /** A plan's checks over any days (a monthly report), read in `timeZone`. */
  planPeriod(
    id: number,
    period: { start: CalendarDate; end: CalendarDate },
    language: ReportLanguage,
    timeZone: string,
  ): Promise<ReportSubject> {
    return this.planReport(id, language, period, timeZone);
  }

  private async planReport(
    id: number,
    language: ReportLanguage,
    when: CalendarDate | { start: CalendarDate; end: CalendarDate },
    timeZone = this.timeZone,
  ): Promise<ReportSubject> {
    const rows: Array<{
      name: string;
      frequency: 'daily' | 'weekly' | 'monthly';
      every: number;
      unit: ScheduleUnit;
      starts_on: CalendarDate | null;
      sites: string;
      devices: string;
      device_count: number;
    }> = await this.dataSource.query(
      `SELECT p."name", p."frequency", p."schedule_every" AS "every", p."schedule_unit" AS "unit",
        to_char(p."starts_on", 'YYYY-MM-DD') AS "starts_on",
        COALESCE((SELECT string_agg(DISTINCT d."location", ', ') FROM "check_plan_devices" pd
          JOIN "devices" d ON d."id" = pd."device_id" AND d."archived_at" IS NULL
          WHERE pd."plan_id" = p."id" AND d."location" <> ''), '') AS "sites",
        COALESCE((SELECT string_agg(d."code", ', ' ORDER BY d."code") FROM (SELECT d."code" FROM "check_plan_devices" pd
          JOIN "devices" d ON d."id" = pd."device_id" AND d."archived_at" IS NULL
          WHERE pd."plan_id" = p."id" ORDER BY d."code" LIMIT 20) d), '') AS "devices",
        (SELECT count(*) FROM "check_plan_devices" pd JOIN "devices" d ON d."id" = pd."device_id"
          AND d."archived_at" IS NULL WHERE pd."plan_id" = p."id")::int AS "device_count"
        FROM "check_plans" p WHERE p."id" = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound();
    const period =
      typeof when === 'string'
        ? schedulePeriod({ every: row.every, unit: row.unit, starts_on: row.starts_on }, when)
        : when;
    const { from, to } = this.instants(period.start, period.end, timeZone);
    const frequency = REPORT_TEXT[language].frequency[row.frequency] ?? row.frequency;
    const more = row.device_count > 20 ? ` … (${row.device_count})` : '';
    return {
      kind: 'round',
      subjectId: id,
      period,
      header: {
        site: row.sites.length > 300 ? `${row.sites.slice(0, 299)}…` : row.sites,
        devices: `${row.devices}${more}`,
        plan: `${row.name} (${frequency})`,
        period: period.start === period.end ? period.start : `${period.start} – ${period.end}`,
      },
      rows: roundRowsSql(id, from, to),
      filename: `plan-${id}-${period.start}${language === 'zh-CN' ? '-zh-CN' : ''}.pdf`,
      timeZone,
    };
  }

  /**
   * Stores the report's verification row and streams its PDF into `destination` (headers already sent by the
   * caller); the SHA-256 and size of the bytes are stored once the last byte is written. Resolves true when the whole
   * PDF was written, false when it was cut short (the error is logged).
   */
  async write(
    subject: ReportSubject,
    language: ReportLanguage,
    generatedBy: string,
    origin: string,
    destination: Writable,
    prepare: (report: { id: string; filename: string }) => void,
  ): Promise<boolean> {
    const [totals] = await this.dataSource.query<ReportTotals[]>(
      totalsSql(subject.rows).sql,
      totalsSql(subject.rows).parameters,
    );
    if (!totals) throw new Error('the totals statement returned no row');
    const id = randomUUID();
    const generatedAt = new Date();
    await this.dataSource.query(
      `INSERT INTO "reports" ("id", "kind", "subject_id", "period_start", "period_end", "language", "records",
        "generated_by", "generated_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        subject.kind,
        subject.subjectId,
        subject.period.start,
        subject.period.end,
        language,
        totals.records,
        generatedBy,
        generatedAt,
      ],
    );
    prepare({ id, filename: subject.filename });
    const document = new ReportWriter(
      this.thread,
      language,
      {
        ...subject.header,
        kind: subject.kind,
        inspectors: [...totals.inspectors].sort(),
        generatedAt,
        verificationId: id,
        verifyUrl: `${origin}/api/reports/${id}/`,
      },
      subject.timeZone ?? this.timeZone,
    );
    const hash = createHash('sha256');
    let bytes = 0;
    const counter = new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    const sent = new Promise<boolean>((resolve) =>
      pipeline(document.pdf, counter, destination, (error) => {
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
          this.logger.warn({ err: error, report: id }, 'report stream failed');
        resolve(!error);
      }),
    );
    let written = true;
    try {
      document.writeHeader(totals);
      await this.writeRows(subject.rows, document, destination);
      document.end();
    } catch (error) {
      written = false;
      this.logger.error({ err: error, report: id }, 'report could not be written');
      document.pdf.destroy();
      destination.destroy();
    }
    const complete = (await sent) && written;
    if (complete)
      await this.dataSource
        .query(`UPDATE "reports" SET "sha256" = $2, "bytes" = $3 WHERE "id" = $1`, [
          id,
          hash.digest('hex'),
          bytes,
        ])
        .catch((error: unknown) => this.logger.warn({ err: error, report: id }, 'report digest not stored'));
    return complete;
  }

  /** The rows from a cursor, each written with its photo; stops when the client goes away. */
  private async writeRows(rows: ReportStatement, document: ReportWriter, destination: Writable) {
    const runner = this.dataSource.createQueryRunner();
    try {
      const stream = await runner.stream(rows.sql, rows.parameters);
      try {
        for await (const row of stream as AsyncIterable<ReportRow>) {
          if (destination.destroyed) break;
          await document.writeRow(row, await this.photo(row.photo));
          await room(document.pdf, destination);
        }
      } finally {
        stream.destroy();
        if (!stream.closed) await once(stream, 'close').catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  private async photo(key: string | null): Promise<RowPhoto> {
    if (!key) return undefined;
    const path = this.media.pathOf(key);
    if (!path) return 'unavailable';
    try {
      return await downscalePhoto(path);
    } catch (error) {
      this.logger.warn({ err: error, key }, 'a report photo could not be read');
      return 'unavailable';
    }
  }

  /** The stored facts of a report (404 when none has that id). */
  async verification(id: string): Promise<ReportVerification> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw notFound();
    const rows: ReportVerification[] = await this.dataSource.query(
      `SELECT "id", "kind",
        CASE WHEN "kind" = 'record' THEN "subject_id" END AS "record",
        CASE WHEN "kind" = 'device' THEN "subject_id" END AS "device",
        CASE WHEN "kind" = 'round' THEN "subject_id" END AS "plan",
        to_char("period_start", 'YYYY-MM-DD') AS "period_start", to_char("period_end", 'YYYY-MM-DD') AS "period_end",
        "language", "records", "generated_by",
        ${isoTimestamp('"generated_at"')} AS "generated_at",
        "sha256", "bytes"::float8 AS "bytes"
        FROM "reports" WHERE "id" = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound();
    return row;
  }
}
