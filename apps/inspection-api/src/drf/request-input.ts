import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import express from 'express';
import multer from 'multer';
import {
  BodyTooLargeError,
  cutOffBody,
  JsonInputError,
  jsonInputVerifier,
  limitBody,
} from '@fieldops/platform';
import { type DrfException, parseError, payloadTooLarge, unsupportedMediaType } from './exceptions';
import { type Input } from './serializer';
import { pythonJsonError, pythonJsonInputError } from './python-json-error';

/** A file part of a multipart request. */
export interface UploadedPart {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** What the parsing middleware leaves on the request: the input, or the error reading it would raise. */
export interface ParsedBody {
  input: Input;
  files: Map<string, UploadedPart>;
  error?: DrfException;
}

type RequestWithBody = Request & { drfBody?: ParsedBody };

export interface BodyLimits {
  maxBodyBytes: number;
  maxFileBytes: number;
  /** Deepest nesting of a JSON body (JSON_MAX_DEPTH); deeper is DRF's parse error. */
  maxJsonDepth: number;
}

function formMap(body: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (typeof body !== 'object' || body === null) return map;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const list = Array.isArray(value) ? value : [value];
    map.set(
      key,
      list.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))),
    );
  }
  return map;
}

function hasBody(request: Request): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined ||
    (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0')
  );
}

/** Files a multipart body may carry. */
const MULTIPART_FILES = 4;

interface ParserError extends Error {
  type?: string;
  code?: string;
  status?: number;
}

/**
 * Reads JSON, urlencoded and multipart bodies (DRF's three default parsers) without ever failing the
 * request here: a parse error, an oversized body or an unsupported media type is kept on the request and
 * raised only when a handler reads its input — after authentication, method and object checks, in DRF's
 * order. Installed under the names Nest looks for, so Nest adds no parser of its own.
 */
export function bodyParsingMiddleware(limits: BodyLimits): RequestHandler[] {
  // Invalid UTF-8 and nesting deeper than the limit are refused before JSON.parse, as DRF's parse error. Each parser
  // is cut off at its limit (limitBody): an oversized body is refused as soon as its size passes the limit and the
  // connection is closed after the answer; the rest is never read.
  const json = limitBody(
    express.json({
      limit: limits.maxBodyBytes,
      strict: false,
      type: () => true,
      verify: jsonInputVerifier({ maxDepth: limits.maxJsonDepth }),
    }),
    limits.maxBodyBytes,
  );
  const urlencoded = limitBody(
    express.urlencoded({
      extended: false,
      limit: limits.maxBodyBytes,
      parameterLimit: 10_000,
      type: () => true,
    }),
    limits.maxBodyBytes,
  );
  // A multipart body as a whole: its files, its fields (maxBodyBytes in all) and the parts' own headers.
  const maxMultipartBytes = MULTIPART_FILES * limits.maxFileBytes + limits.maxBodyBytes + 64 * 1024;
  const memory = multer.memoryStorage();
  const multipart = limitBody(
    multer({
      // Memory storage that cuts the request off as soon as one file passes maxFileBytes (multer alone reads the rest
      // of the body before it reports LIMIT_FILE_SIZE).
      storage: {
        _handleFile(request, file, callback) {
          file.stream.once('limit', () =>
            cutOffBody(request, new multer.MulterError('LIMIT_FILE_SIZE', file.fieldname)),
          );
          memory._handleFile(request, file, callback);
        },
        _removeFile: (request, file, callback) => memory._removeFile(request, file, callback),
      },
      limits: {
        fileSize: limits.maxFileBytes,
        files: MULTIPART_FILES,
        fields: 200,
        parts: 210,
        fieldSize: limits.maxBodyBytes,
      },
    }).any(),
    maxMultipartBytes,
    undefined,
    { cutOff: true },
  );

  const toDrfError = (error: ParserError, request: Request, kind: 'json' | 'form' | 'multipart') => {
    if (error.code === 'LIMIT_FILE_SIZE')
      return payloadTooLarge(`Uploaded file exceeds the limit of ${limits.maxFileBytes} bytes.`);
    if (error instanceof BodyTooLargeError)
      return payloadTooLarge(`Request body exceeds the limit of ${error.limit} bytes.`);
    if (error.type === 'entity.too.large')
      return payloadTooLarge(`Request body exceeds the limit of ${limits.maxBodyBytes} bytes.`);
    if (error.code === 'LIMIT_FIELD_VALUE')
      return payloadTooLarge(`Form field exceeds the limit of ${limits.maxBodyBytes} bytes.`);
    if (error.type === 'charset.unsupported' || error.type === 'encoding.unsupported')
      return unsupportedMediaType(request.headers['content-type'] ?? '');
    if (error instanceof JsonInputError)
      return parseError(`JSON parse error - ${pythonJsonInputError(error.problem)}`);
    if (kind === 'json' && error.type === 'entity.parse.failed')
      return parseError(`JSON parse error - ${pythonJsonError(error, (error as { body?: string }).body)}`);
    if (kind === 'multipart') return parseError(`Multipart form parse error - ${error.message}`);
    return parseError(kind === 'json' ? `JSON parse error - ${error.message}` : 'Malformed request.');
  };

  function jsonParser(request: Request, response: Response, next: NextFunction): void {
    const target = request as RequestWithBody;
    const parsed: ParsedBody = { input: { kind: 'json', data: {} }, files: new Map() };
    target.drfBody = parsed;
    if (!hasBody(request)) {
      next();
      return;
    }
    const contentType = request.headers['content-type'];
    const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const done =
      (kind: 'json' | 'form' | 'multipart') =>
      (error?: unknown): void => {
        if (error) {
          parsed.error = toDrfError(error as ParserError, request, kind);
        } else if (kind === 'json') {
          parsed.input = { kind: 'json', data: request.body === undefined ? {} : (request.body as unknown) };
        } else {
          parsed.input = { kind: 'form', data: formMap(request.body) };
          for (const file of (request as Request & { files?: UploadedPart[] }).files ?? [])
            parsed.files.set(file.fieldname, file);
        }
        next();
      };
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      json(request, response, done('json'));
    } else if (mediaType === 'application/x-www-form-urlencoded') {
      urlencoded(request, response, done('form'));
    } else if (mediaType === 'multipart/form-data') {
      multipart(request, response, done('multipart'));
    } else {
      // No media type (DRF treats the body as empty) or one DRF does not parse (415): the body is not read, and the
      // connection is closed after the answer instead of reading the unread rest.
      response.setHeader('Connection', 'close');
      if (contentType !== undefined) parsed.error = unsupportedMediaType(contentType);
      next();
    }
  }
  function urlencodedParser(_request: Request, _response: Response, next: NextFunction): void {
    next();
  }
  return [jsonParser, urlencodedParser];
}

/** The request's parsed body; reading it raises the parse / size / media-type error, if any. */
export class RequestInput {
  constructor(private readonly body: ParsedBody | undefined) {}

  read(): Input {
    if (this.body?.error) throw this.body.error;
    return this.body?.input ?? { kind: 'json', data: {} };
  }

  /** Multipart file parts by field name (empty for other bodies). */
  files(): Map<string, UploadedPart> {
    if (this.body?.error) throw this.body.error;
    return this.body?.files ?? new Map<string, UploadedPart>();
  }
}

export const Body = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestInput =>
    new RequestInput(context.switchToHttp().getRequest<RequestWithBody>().drfBody),
);
