import { parentPort } from 'node:worker_threads';
import { ReportDocument, type ReportHeader, type ReportRow, type ReportTotals } from './report-document';
import { type ReportLanguage } from './report-text';

/**
 * The worker thread the reports are laid out in (report-writer.ts starts it): every document's text layout, its
 * font subset (fontkit, at the end) and its compression run here, off inspection-api's event loop. One worker
 * serves every report of the process, each by its id; the parsed font stays loaded between reports.
 */

/** What inspection-api asks of the worker. */
export type ReportRequest =
  | { id: number; op: 'open'; language: ReportLanguage; header: ReportHeader; timeZone: string }
  | { id: number; op: 'header'; totals: ReportTotals }
  | { id: number; op: 'row'; row: ReportRow; photo: Uint8Array | 'unavailable' | undefined }
  | { id: number; op: 'end' }
  | { id: number; op: 'abort' };

/** What the worker answers: the PDF's bytes as pdfkit writes them, each row's acknowledgement, its end or error. */
export type ReportReply =
  | { id: number; op: 'data'; chunk: Uint8Array }
  | { id: number; op: 'row' }
  | { id: number; op: 'end' }
  | { id: number; op: 'error'; message: string };

const documents = new Map<number, ReportDocument>();
const port = parentPort;

function reply(message: ReportReply): void {
  port?.postMessage(message);
}

function handle(request: ReportRequest): void {
  const { id } = request;
  if (request.op === 'open') {
    const document = new ReportDocument(request.language, request.header, request.timeZone);
    documents.set(id, document);
    document.pdf.on('data', (chunk: Buffer) => reply({ id, op: 'data', chunk }));
    document.pdf.on('end', () => {
      documents.delete(id);
      reply({ id, op: 'end' });
    });
    return;
  }
  const document = documents.get(id);
  if (!document) return;
  switch (request.op) {
    case 'header':
      document.writeHeader(request.totals);
      return;
    case 'row': {
      const { photo } = request;
      // A photo crosses the thread boundary as a Uint8Array; pdfkit embeds Buffers.
      const bytes =
        photo instanceof Uint8Array ? Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength) : photo;
      document.writeRow(request.row, bytes);
      reply({ id, op: 'row' });
      return;
    }
    case 'end':
      document.end();
      return;
    case 'abort':
      documents.delete(id);
      document.pdf.removeAllListeners('data');
      document.pdf.destroy();
      return;
  }
}

port?.on('message', (request: ReportRequest) => {
  try {
    handle(request);
  } catch (error) {
    documents.get(request.id)?.pdf.destroy();
    documents.delete(request.id);
    reply({ id: request.id, op: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
