import PDFDocument from 'pdfkit';
import { reportFont } from './report-font';
import { localDateTime, pageLabel, REPORT_TEXT, type ReportLanguage, type ReportText } from './report-text';

export type ReportKind = 'record' | 'round' | 'device';

/** What the top of the first page says. */
export interface ReportHeader {
  kind: ReportKind;
  site: string;
  /** The device (`P-1 Pump 1`), or for a round the plan's devices. */
  devices: string;
  plan: string;
  period: string;
  inspectors: string[];
  generatedAt: Date;
  verificationId: string;
  verifyUrl: string;
}

export interface ReportTotals {
  records: number;
  ok: number;
  warn: number;
  fail: number;
  out_of_range: number;
  photos: number;
  checks: number;
  checks_done: number;
  inspectors: string[];
  actions: Partial<Record<keyof ReportText['actionStatus'], number>>;
}

export interface ReportAction {
  id: number;
  title: string;
  status: keyof ReportText['actionStatus'];
  assignee: string | null;
  due_date: string | null;
}

/** One row of a report: a record, or (in a round) a check that has none in the period. */
export interface ReportRow {
  record_id: number | null;
  checked_at: Date | null;
  status: keyof ReportText['status'] | null;
  value: string | null;
  note: string | null;
  photo: string | null;
  checked_by: string | null;
  source: keyof ReportText['sources'] | null;
  out_of_range: boolean | null;
  device_code: string;
  device_name: string;
  item_name: string;
  expected_value: string;
  unit: string;
  plan_name: string;
  actions: ReportAction[];
}

/** A photo as the row prints it: JPEG bytes, or unavailable (missing file, not decodable). */
export type RowPhoto = Buffer | 'unavailable' | undefined;

const MARGIN = 40;
const FOOTER = 40;
const PHOTO_BOX = { width: 150, height: 112 };
const GAP = 10;
/** Notes longer than this are cut (a row must fit on a page). */
const NOTE_CHARACTERS = 800;
const COLOURS = {
  text: '#1f2328',
  muted: '#59636e',
  rule: '#d0d7de',
  ok: '#1a7f37',
  warn: '#9a6700',
  fail: '#cf222e',
  missing: '#8c959f',
};

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/**
 * The layout of a report, written with pdfkit onto its stream page by page (pages are not buffered: each is
 * written out when the next one starts, and each image as soon as it is placed). The caller reads the stream.
 */
export class ReportDocument {
  readonly pdf: PDFKit.PDFDocument;
  private readonly text: ReportText;
  private pages = 0;

  constructor(
    private readonly language: ReportLanguage,
    private readonly header: ReportHeader,
    private readonly timeZone: string,
  ) {
    this.text = REPORT_TEXT[language];
    this.pdf = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER },
      autoFirstPage: false,
      bufferPages: false,
      lang: language,
      displayTitle: true,
      info: {
        Title: `${this.text.title[header.kind]} (${header.verificationId})`,
        Creator: 'FieldOps inspection-api',
        Producer: 'pdfkit',
        CreationDate: header.generatedAt,
      },
    });
    this.pdf.registerFont('report', reportFont() as unknown as string);
    this.pdf.on('pageAdded', () => this.footer());
    this.pdf.addPage();
    this.pdf.font('report');
  }

  private get width(): number {
    return this.pdf.page.width - 2 * MARGIN;
  }

  private get bottom(): number {
    return this.pdf.page.height - this.pdf.page.margins.bottom;
  }

  /** The verification id, generated time and page number at the foot of every page. */
  private footer(): void {
    const doc = this.pdf;
    this.pages += 1;
    const { x, y } = doc;
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 };
    doc
      .font('report')
      .fontSize(7.5)
      .fillColor(COLOURS.muted)
      .text(
        `${this.text.verification}${this.text.colon}${this.header.verificationId} · ${this.text.generated}${this.text.colon}${localDateTime(this.header.generatedAt, this.timeZone)} (${this.timeZone}) · ${pageLabel(this.language, this.pages)}`,
        MARGIN,
        doc.page.height - MARGIN - 10,
        { width: this.width, lineBreak: false },
      );
    doc.page.margins = margins;
    doc.x = x;
    doc.y = y;
    doc.fillColor(COLOURS.text);
  }

  /** The title, the header fields and the totals. */
  writeHeader(totals: ReportTotals): void {
    const doc = this.pdf;
    const { text, header } = this;
    doc.fontSize(18).fillColor(COLOURS.text).text(text.title[header.kind]);
    doc.moveDown(0.6);
    const inspectors = header.inspectors.length ? header.inspectors.join(', ') : text.none;
    const fields: Array<[string, string]> = [
      [text.site, header.site || text.none],
      [header.kind === 'round' ? text.devices : text.device, header.devices],
      [text.plan, header.plan || text.none],
      [text.period, header.period],
      [text.inspectors, inspectors],
      [text.generated, `${localDateTime(header.generatedAt, this.timeZone)} (${this.timeZone})`],
      [text.verification, header.verificationId],
      [text.verifyAt, header.verifyUrl],
    ];
    for (const [label, value] of fields) this.field(label, value);
    doc.moveDown(0.8);
    doc.fontSize(12).fillColor(COLOURS.text).text(text.totals);
    doc.moveDown(0.2);
    const statuses = (['ok', 'warn', 'fail'] as const)
      .map((status) => `${text.status[status]} ${totals[status]}`)
      .join(' · ');
    const lines = [
      `${text.records}${text.colon}${totals.records} (${statuses}) · ${text.outOfRange} ${totals.out_of_range} · ${text.photos} ${totals.photos}`,
    ];
    if (header.kind === 'round')
      lines.push(
        `${text.checks}${text.colon}${totals.checks} · ${text.checksDone} ${totals.checks_done} · ${text.checksNotDone} ${totals.checks - totals.checks_done}`,
      );
    const actionCounts = (Object.keys(text.actionStatus) as Array<keyof ReportText['actionStatus']>)
      .filter((status) => totals.actions[status])
      .map((status) => `${text.actionStatus[status]} ${totals.actions[status]}`);
    const opened = Object.values(totals.actions).reduce((sum, count) => sum + (count ?? 0), 0);
    lines.push(
      `${text.actionsOpened}${text.colon}${opened}${actionCounts.length ? ` (${actionCounts.join(' · ')})` : ''}`,
    );
    doc.fontSize(10);
    for (const line of lines) doc.text(line);
    doc.moveDown(0.8);
    doc.fontSize(12).text(text.items);
    doc.moveDown(0.3);
    this.rule();
  }

  private field(label: string, value: string): void {
    const doc = this.pdf;
    const y = doc.y;
    doc.fontSize(10).fillColor(COLOURS.muted).text(label, MARGIN, y, { width: 110 });
    doc.fillColor(COLOURS.text).text(value, MARGIN + 115, y, { width: this.width - 115 });
    doc.x = MARGIN;
  }

  private rule(): void {
    const doc = this.pdf;
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + this.width, doc.y)
      .lineWidth(0.5)
      .strokeColor(COLOURS.rule)
      .stroke();
    doc.y += GAP / 2;
  }

  /** The lines of a row's text column, each with its size and colour. */
  private rowLines(row: ReportRow): Array<{ text: string; size: number; colour: string }> {
    const { text } = this;
    const device = `${row.device_code} ${row.device_name}`;
    const title = row.item_name ? `${device} · ${row.item_name}` : device;
    if (row.record_id === null || row.status === null || row.checked_at === null)
      return [
        { text: title, size: 10, colour: COLOURS.text },
        { text: text.notDone, size: 9, colour: COLOURS.missing },
      ];
    const lines = [
      {
        text: `#${row.record_id} · ${localDateTime(new Date(row.checked_at), this.timeZone)} · ${title}`,
        size: 10,
        colour: COLOURS.text,
      },
    ];
    const expected = row.expected_value ? ` (${text.expected} ${row.expected_value})` : '';
    const value = row.value
      ? ` · ${text.value}${text.colon}${row.value}${row.unit ? ` ${row.unit}` : ''}${expected}`
      : '';
    const range = row.out_of_range ? ` · ${text.outOfRange}` : '';
    lines.push({ text: `${text.status[row.status]}${value}${range}`, size: 10, colour: COLOURS[row.status] });
    if (row.note)
      lines.push({
        text: `${text.note}${text.colon}${cut(row.note, NOTE_CHARACTERS)}`,
        size: 9,
        colour: COLOURS.text,
      });
    const by = [
      row.checked_by ? `${text.inspector}${text.colon}${row.checked_by}` : '',
      row.plan_name ? `${text.plan}${text.colon}${row.plan_name}` : '',
      row.source ? `${text.source}${text.colon}${text.sources[row.source] ?? row.source}` : '',
    ].filter(Boolean);
    if (by.length) lines.push({ text: by.join(' · '), size: 9, colour: COLOURS.muted });
    for (const action of row.actions) {
      const details = [
        text.actionStatus[action.status] ?? action.status,
        `${text.assignee} ${action.assignee ?? text.unassigned}`,
        action.due_date ? `${text.due} ${action.due_date}` : '',
      ].filter(Boolean);
      lines.push({
        text: `${text.action} #${action.id} ${action.title} · ${details.join(' · ')}`,
        size: 9,
        colour: COLOURS.text,
      });
    }
    return lines;
  }

  /** One row: a coloured bar, its text, and its photo (downscaled by the caller) at the right. */
  writeRow(row: ReportRow, photo: RowPhoto): void {
    const doc = this.pdf;
    const hasPhoto = photo !== undefined;
    const textWidth = this.width - 8 - (hasPhoto ? PHOTO_BOX.width + GAP : 0);
    const lines = this.rowLines(row);
    const textHeight = lines.reduce(
      (sum, line) => sum + doc.fontSize(line.size).heightOfString(line.text, { width: textWidth }) + 1,
      0,
    );
    const height = Math.max(textHeight, hasPhoto ? PHOTO_BOX.height : 0);
    if (doc.y + height + GAP > this.bottom) doc.addPage();
    const top = doc.y;
    const colour = row.status ? COLOURS[row.status] : COLOURS.missing;
    doc.rect(MARGIN, top, 3, height).fill(colour);
    let y = top;
    for (const line of lines) {
      doc
        .fontSize(line.size)
        .fillColor(line.colour)
        .text(line.text, MARGIN + 8, y, { width: textWidth });
      y = doc.y + 1;
    }
    if (Buffer.isBuffer(photo)) {
      doc.image(photo, MARGIN + this.width - PHOTO_BOX.width, top, {
        fit: [PHOTO_BOX.width, PHOTO_BOX.height],
        align: 'right',
      });
    } else if (photo === 'unavailable') {
      const x = MARGIN + this.width - PHOTO_BOX.width;
      doc.rect(x, top, PHOTO_BOX.width, PHOTO_BOX.height).lineWidth(0.5).strokeColor(COLOURS.rule).stroke();
      doc
        .fontSize(8)
        .fillColor(COLOURS.muted)
        .text(this.text.photoUnavailable, x, top + PHOTO_BOX.height / 2 - 5, {
          width: PHOTO_BOX.width,
          align: 'center',
        });
    }
    doc.fillColor(COLOURS.text);
    doc.x = MARGIN;
    doc.y = top + height + GAP / 2;
    this.rule();
  }

  end(): void {
    this.pdf.end();
  }
}
