import Papa from 'papaparse';

/**
 * The records export as Excel opens it: made in the browser from the API's CSV (`/api/records/export.csv`, whose
 * bytes stay the API's wire format), so the reader's language and time zone decide the words and times.
 *
 * - A UTF-8 byte order mark first: without it Excel reads a CSV in the system's code page (GBK on a Chinese
 *   Windows), and every Chinese character turns to mojibake.
 * - Column titles and status words in the console's language; the check's source (chat, QR, API) in words too.
 * - `checked_at` as `yyyy-mm-dd hh:mm:ss` in the browser's time zone (named in the column title), which Excel reads
 *   as a date and time in any language, instead of a UTC ISO 8601 string it leaves as text.
 * - CRLF line ends (RFC 4180, and what Excel writes). Cells keep the API's protection against formulas.
 */
export interface ExcelCsvWords {
  /** The title of an API column (`checked_at`, `device_code`, …). */
  column(name: string): string;
  /** `ok` / `warn` / `fail` in words. */
  status(status: string): string;
  /** `chat` / `qr` / `api` in words. */
  source(source: string): string;
}

export const BYTE_ORDER_MARK = '\uFEFF';

/** `2026-11-27T05:04:00.000Z` → `2026-11-27 13:04:00` in Asia/Shanghai (the browser's zone when not given). */
export function localDateTime(iso: string, timeZone?: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** The browser's time zone (`Asia/Shanghai`), for the time column's title. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The API's records CSV rewritten for Excel (see above). Throws on text that is not the API's CSV. */
export function excelCsv(apiCsv: string, words: ExcelCsvWords, timeZone?: string): string {
  const parsed = Papa.parse<string[]>(apiCsv, { skipEmptyLines: true });
  if (parsed.errors.length) throw new Error(`records export: ${parsed.errors[0]?.message ?? 'not CSV'}`);
  const [header = [], ...rows] = parsed.data;
  const checkedAt = header.indexOf('checked_at');
  const status = header.indexOf('status');
  const source = header.indexOf('source');
  const cell = (value: string, column: number): string => {
    if (column === checkedAt) return localDateTime(value, timeZone);
    if (column === status && value) return words.status(value);
    if (column === source && value) return words.source(value);
    return value;
  };
  const titles = header.map((name) =>
    name === 'checked_at' ? `${words.column(name)} (${timeZone ?? browserTimeZone()})` : words.column(name),
  );
  const body = rows.map((row) => row.map(cell));
  return BYTE_ORDER_MARK + Papa.unparse([titles, ...body], { newline: '\r\n' }) + '\r\n';
}
