import { isUtf8 } from 'node:buffer';
import { type Request } from 'express';
import busboy from 'busboy';
import { type Activity, badSyntax, type BotFrameworkError, messageSizeTooBig } from '@fieldops/contracts';

export interface UploadedFile {
  contentType: string;
  name: string;
  data: Buffer;
}

export interface ParsedUpload {
  activity?: Activity;
  files: UploadedFile[];
}

function tooBig(maxBytes: number): BotFrameworkError {
  return messageSizeTooBig(`The upload exceeds the limit of ${maxBytes} bytes`);
}

function tooManyFiles(maxFiles: number): BotFrameworkError {
  return messageSizeTooBig(`The upload has more than ${maxFiles} files`);
}

/**
 * A file name as its bytes were sent: Node reads header values, and busboy parameters without a charset, as
 * Latin-1, while browsers and the stock clients send UTF-8 (`照片.png` would become `ç…§ç‰‡.png`). Bytes that are
 * valid UTF-8 are read as UTF-8; anything else stays Latin-1, as sent.
 */
export function sentFilename(latin1: string): string {
  if (!/[\x80-\xff]/.test(latin1) || /[\u0100-\uffff]/.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : latin1;
}

/** Reads the filename of a `Content-Disposition` header (`filename*=` or `filename=`). */
export function filenameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall back to the plain filename, if any.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? sentFilename(name) : undefined;
}

const ACTIVITY_TYPES = ['application/vnd.microsoft.activity', 'application/vnd.microsoft.bot.message'];

/**
 * An upload body: a single file (its Content-Type and Content-Disposition) or multipart/form-data, where the part
 * named `activity` or typed `application/vnd.microsoft.activity` holds the activity (stock clients give it a filename,
 * so it arrives as a file part) and every other part is an attachment. At most `maxBytes` in all and `maxFiles`
 * attachments, else 413.
 */
export async function parseUpload(
  request: Request,
  maxBytes: number,
  maxFiles: number,
): Promise<ParsedUpload> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    request.resume();
    throw tooBig(maxBytes);
  }
  const contentType = request.headers['content-type'] ?? 'application/octet-stream';
  if (!/^multipart\/form-data/i.test(contentType)) {
    const data = await readAll(request, maxBytes);
    return {
      files: [
        {
          contentType: contentType.split(';')[0].trim(),
          name: filenameOf(request.headers['content-disposition']) ?? 'file',
          data,
        },
      ],
    };
  }
  return new Promise<ParsedUpload>((resolve, reject) => {
    const parsed: ParsedUpload = { files: [] };
    let total = 0;
    let failed = false;
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      request.resume();
      reject(error);
    };
    let parser: ReturnType<typeof busboy>;
    try {
      // The activity part and a few text fields besides the files; beyond that the request is refused, not cut.
      parser = busboy({
        headers: request.headers,
        // File names without a charset are UTF-8, as browsers and the stock clients send them.
        defParamCharset: 'utf8',
        limits: { fileSize: maxBytes, parts: maxFiles + 4 },
      });
    } catch {
      reject(badSyntax('Malformed multipart body'));
      return;
    }
    const pending: Array<Promise<void>> = [];
    const collectPart = (
      name: string,
      mimeType: string,
      filename: string | undefined,
      data: Buffer,
    ): void => {
      if (name === 'activity' || ACTIVITY_TYPES.includes(mimeType.toLowerCase())) {
        try {
          parsed.activity = JSON.parse(data.toString('utf8')) as Activity;
        } catch {
          fail(badSyntax('The activity part is not valid JSON'));
        }
        return;
      }
      if (parsed.files.length >= maxFiles) {
        fail(tooManyFiles(maxFiles));
        return;
      }
      parsed.files.push({ contentType: mimeType, name: filename ?? 'blob', data });
    };
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > maxBytes) fail(tooBig(maxBytes));
            chunks.push(chunk);
          });
          stream.on('end', () => {
            if (!failed) collectPart(name, info.mimeType, info.filename, Buffer.concat(chunks));
            done();
          });
        }),
      );
    });
    parser.on('field', (name, value, info) => {
      total += Buffer.byteLength(value);
      if (total > maxBytes) fail(tooBig(maxBytes));
      else collectPart(name, info.mimeType, undefined, Buffer.from(value));
    });
    parser.on('partsLimit', () => fail(tooManyFiles(maxFiles)));
    parser.on('error', () => fail(badSyntax('Malformed multipart body')));
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        if (!failed) resolve(parsed);
      });
    });
    request.pipe(parser);
  });
}

async function readAll(request: Request, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      request.resume();
      throw tooBig(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
