import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { type ReportHeader, type ReportRow, type ReportTotals, type RowPhoto } from './report-document';
import { type ReportLanguage } from './report-text';
import { type ReportReply, type ReportRequest } from './report-worker';

/**
 * Rows handed to the worker and not yet laid out, at most: `writeRow` waits beyond this, so a slow worker never
 * makes the process hold more than a few rows and their photos.
 */
const ROWS_IN_FLIGHT = 4;

/** A document's side of the worker: where its bytes, acknowledgements, end and error go. */
interface OpenDocument {
  reply(message: ReportReply): void;
  fail(error: Error): void;
}

/**
 * The report worker of one inspection-api (ReportsService owns it): started with its first report, replaced by the
 * next report when it died, stopped with the application.
 */
export class ReportThread {
  private worker: Worker | undefined;
  private readonly open = new Map<number, OpenDocument>();
  private nextId = 1;

  /** A new document's id; its replies go to `document`. */
  register(document: OpenDocument): number {
    const id = this.nextId++;
    this.open.set(id, document);
    return id;
  }

  /** Whether the document is still open (not ended, failed or dropped). */
  isOpen(id: number): boolean {
    return this.open.has(id);
  }

  unregister(id: number): void {
    this.open.delete(id);
  }

  post(request: ReportRequest): void {
    this.worker ??= this.start();
    this.worker.postMessage(request);
  }

  /** Stops the worker (the documents still open fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  /**
   * The worker's entry: the built `report-worker.js` beside this file; when inspection-api runs from its TypeScript
   * sources (its tests, under Jest's swc transform), the same sources compiled by swc as the worker requires them.
   */
  private start(): Worker {
    const built = join(__dirname, 'report-worker.js');
    const started = existsSync(built)
      ? new Worker(built)
      : new Worker(
          `const { transformFileSync } = require('@swc/core');
          const options = { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } };
          require.extensions['.ts'] = (module, file) => module._compile(transformFileSync(file, options).code, file);
          require(${JSON.stringify(join(__dirname, 'report-worker.ts'))});`,
          { eval: true },
        );
    // Reports in progress keep the process busy through their HTTP responses; an idle worker never does.
    started.unref();
    started.on('message', (message: ReportReply) => this.open.get(message.id)?.reply(message));
    const failAll = (error: Error): void => {
      if (this.worker === started) this.worker = undefined;
      for (const document of [...this.open.values()]) document.fail(error);
    };
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`the report worker stopped (exit code ${code})`)));
    return started;
  }
}

/**
 * A report written by the worker thread (report-worker.ts), read as a stream here: the same steps as
 * ReportDocument (header, rows, end), with the layout, the font subset and the compression off the event loop.
 */
export class ReportWriter {
  /** The PDF's bytes as the worker writes them (the caller watches `readableLength` to wait for its reader). */
  readonly pdf = new Readable({ read: () => undefined });
  private readonly id: number;
  private rowsInFlight = 0;
  private waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private failed: Error | undefined;
  private ended = false;

  constructor(
    private readonly thread: ReportThread,
    language: ReportLanguage,
    header: ReportHeader,
    timeZone: string,
  ) {
    this.id = thread.register({
      reply: (message) => this.reply(message),
      fail: (error) => this.fail(error),
    });
    // Read no further (the client went away, or the caller gave up): the worker drops the document.
    this.pdf.once('close', () => {
      if (!thread.isOpen(this.id)) return;
      thread.unregister(this.id);
      if (!this.ended) thread.post({ id: this.id, op: 'abort' });
    });
    thread.post({ id: this.id, op: 'open', language, header, timeZone });
  }

  writeHeader(totals: ReportTotals): void {
    this.thread.post({ id: this.id, op: 'header', totals });
  }

  /** Hands a row to the worker; waits while ROWS_IN_FLIGHT rows are not laid out yet. */
  async writeRow(row: ReportRow, photo: RowPhoto): Promise<void> {
    if (this.failed) throw this.failed;
    this.thread.post({ id: this.id, op: 'row', row, photo });
    this.rowsInFlight += 1;
    if (this.rowsInFlight >= ROWS_IN_FLIGHT)
      await new Promise<void>((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  end(): void {
    this.thread.post({ id: this.id, op: 'end' });
  }

  private reply(message: ReportReply): void {
    switch (message.op) {
      case 'data':
        if (!this.pdf.destroyed)
          this.pdf.push(
            Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength),
          );
        return;
      case 'row':
        this.rowsInFlight -= 1;
        this.waiting?.resolve();
        this.waiting = undefined;
        return;
      case 'end':
        this.ended = true;
        this.thread.unregister(this.id);
        this.pdf.push(null);
        return;
      case 'error':
        this.fail(new Error(`the report could not be laid out: ${message.message}`));
        return;
    }
  }

  private fail(error: Error): void {
    this.failed = error;
    this.thread.unregister(this.id);
    this.waiting?.reject(error);
    this.waiting = undefined;
    this.pdf.destroy(error);
  }
}
