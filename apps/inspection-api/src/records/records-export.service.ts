import { pipeline, type Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { stringify } from 'csv-stringify';
import { DataSource } from 'typeorm';
import { isoTimestamp, SqlParameters } from '../database/sql';
import { recordConditions, recordOrder, type RecordFilters } from './records.service';

/** The export's columns, in order (the header row). */
export const EXPORT_COLUMNS = [
  'id',
  'checked_at',
  'device_code',
  'device_name',
  'item',
  'plan',
  'status',
  'value',
  'note',
  'checked_by',
  'photo',
  'attachment',
  'source',
] as const;

/**
 * Columns people type into: a cell starting with a formula character (`=`, `+`, `-`, `@`, tab, carriage return) is
 * neutralised with a leading `'` (CSV injection, OWASP), except a `-` cell that is a number as a whole (`-3`,
 * `-0.5`, `-1e3`), which a spreadsheet reads as that number and nothing else.
 */
const TYPED_COLUMNS = new Set(['device_code', 'device_name', 'item', 'plan', 'value', 'note', 'checked_by']);
const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export const neutraliseFormula = (text: string): string =>
  FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;

/** The export statement: records with their device, item and plan names, photo URLs absolute (`$1`). */
export function exportSql(mediaBase: string, filters: RecordFilters) {
  const parameters = new SqlParameters();
  parameters.add(mediaBase);
  const where = recordConditions(filters, parameters);
  const url = (column: string) =>
    `CASE WHEN r."${column}" IS NULL THEN '' ELSE $1::text || r."${column}" END`;
  const sql = `SELECT r."id", ${isoTimestamp('r."checked_at"')} AS "checked_at", d."code" AS "device_code",
      d."name" AS "device_name", COALESCE(i."name", '') AS "item", COALESCE(p."name", '') AS "plan", r."status",
      r."value", r."note", r."checked_by", ${url('photo')} AS "photo", ${url('attachment')} AS "attachment",
      r."source"
    FROM "check_records" r
    JOIN "devices" d ON d."id" = r."device_id"
    LEFT JOIN "check_items" i ON i."id" = r."item_id"
    LEFT JOIN "check_plans" p ON p."id" = r."plan_id"
    ${where}
    ORDER BY ${recordOrder(filters)}`;
  return { sql, parameters: parameters.values };
}

/**
 * `GET /api/records/export.csv`: rows read from a PostgreSQL cursor (pg-query-stream, 100 rows at a time) through
 * csv-stringify, with backpressure all the way to the client, so memory stays bounded whatever the count. The
 * connection goes back to the pool when the stream ends, fails or the client goes away.
 */
@Injectable()
export class RecordsExportService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async csv(mediaBase: string, filters: RecordFilters): Promise<Readable> {
    const { sql, parameters } = exportSql(mediaBase, filters);
    const runner = this.dataSource.createQueryRunner();
    let rows: Readable;
    try {
      rows = await runner.stream(sql, parameters);
    } catch (error) {
      await runner.release();
      throw error;
    }
    const csv = stringify({
      header: true,
      columns: [...EXPORT_COLUMNS],
      cast: {
        string: (value, context) =>
          typeof context.column === 'string' && TYPED_COLUMNS.has(context.column)
            ? neutraliseFormula(value)
            : value,
      },
    });
    return pipeline(rows, csv, (error) => {
      if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
        this.logger.warn({ err: error }, 'records export failed');
      void runner.release();
    });
  }
}
