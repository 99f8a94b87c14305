import { isUtf8 } from 'node:buffer';
import { type IncomingMessage } from 'node:http';

/**
 * How deeply JSON bodies may nest objects and arrays by default (JSON_MAX_DEPTH): the MaxDepth of the real Bot
 * Framework services' parsers (Json.NET 13 and System.Text.Json both stop at 64), far above any activity, card or
 * record, and far below what recursive code (JSON.stringify, deep copies) can walk without overflowing the stack.
 */
export const JSON_MAX_DEPTH = 64;

/** Why a JSON body was refused before it was parsed. */
export type JsonInputProblem =
  | {
      kind: 'encoding';
      /** Byte offset of the first byte of the invalid sequence. */
      position: number;
      /** Its first byte. */
      byte: number;
      /** How many bytes Python's codec reports as undecodable (`bytes in position a-b` when more than one). */
      bytes: number;
      reason: 'invalid start byte' | 'invalid continuation byte' | 'unexpected end of data';
    }
  | {
      kind: 'depth';
      /** Byte offset of the bracket that went one level too deep. */
      position: number;
      /** That bracket: an object or an array. */
      container: 'object' | 'array';
      maxDepth: number;
    }
  | {
      kind: 'nul';
      /** Byte offset of the `\u0000` escape. */
      position: number;
    };

/** An operator- and client-readable sentence for a problem. */
export function describeJsonInputProblem(problem: JsonInputProblem): string {
  switch (problem.kind) {
    case 'encoding':
      return `The body is not valid UTF-8 (byte 0x${problem.byte.toString(16).padStart(2, '0')} at position ${problem.position}: ${problem.reason})`;
    case 'depth':
      return `The body nests objects and arrays deeper than ${problem.maxDepth} levels (at position ${problem.position})`;
    case 'nul':
      return `The body contains a NUL character (\\u0000) at position ${problem.position}; text may not contain it`;
  }
}

/**
 * A JSON body refused before parsing. A SyntaxError with status 400 and body-parser's parse-error type, so every
 * path renders it as the service's parse error: body-parser keeps the status, Nest maps a SyntaxError to a 400
 * BadRequestException, the gateways' filters give it their unparsable-body code (BadSyntax).
 */
export class JsonInputError extends SyntaxError {
  status = 400;
  statusCode = 400;
  expose = true;
  type = 'entity.parse.failed';

  constructor(readonly problem: JsonInputProblem) {
    super(describeJsonInputProblem(problem));
    this.name = 'JsonInputError';
  }
}

/** The first invalid UTF-8 sequence, in the terms of Python's codec (which DRF's parse error quotes). */
function firstInvalidUtf8(bytes: Uint8Array): Extract<JsonInputProblem, { kind: 'encoding' }> | undefined {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else {
      return { kind: 'encoding', position: index, byte: lead, bytes: 1, reason: 'invalid start byte' };
    }
    for (let offset = 1; offset < length; offset += 1) {
      const at = index + offset;
      if (at >= bytes.length)
        return {
          kind: 'encoding',
          position: index,
          byte: lead,
          bytes: offset,
          reason: 'unexpected end of data',
        };
      const continuation = bytes[at] ?? 0;
      const min = offset === 1 ? low : 0x80;
      const max = offset === 1 ? high : 0xbf;
      if (continuation < min || continuation > max)
        return {
          kind: 'encoding',
          position: index,
          byte: lead,
          bytes: offset,
          reason: 'invalid continuation byte',
        };
    }
    index += length;
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const LETTER_U = 0x75;
const DIGIT_0 = 0x30;

export interface JsonInputRules {
  /** Deepest nesting of objects and arrays (default JSON_MAX_DEPTH). */
  maxDepth?: number;
  /** Refuse `\u0000` in strings (text PostgreSQL cannot store, and that no client means to send). */
  refuseNul?: boolean;
}

/**
 * What is wrong with a JSON body before it is parsed, if anything: bytes that are not UTF-8 (parsers would keep them
 * as U+FFFD), nesting deeper than `maxDepth` (recursive code such as JSON.stringify would overflow the stack on it),
 * or, with `refuseNul`, a `\u0000` escape in a string. The UTF-8 check is native; the rest is one pass over the bytes
 * counting brackets outside strings, without building anything. The body's syntax is left to the JSON parser.
 */
export function jsonInputProblem(
  bytes: Uint8Array,
  rules: JsonInputRules = {},
): JsonInputProblem | undefined {
  if (!isUtf8(bytes)) {
    const invalid = firstInvalidUtf8(bytes);
    if (invalid) return invalid;
  }
  const maxDepth = rules.maxDepth ?? JSON_MAX_DEPTH;
  const refuseNul = rules.refuseNul ?? false;
  // Too short to nest deeper than the limit, and no NUL to look for: nothing to scan.
  if (bytes.length <= maxDepth && !refuseNul) return undefined;
  let depth = 0;
  let inString = false;
  const length = bytes.length;
  for (let index = 0; index < length; index += 1) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) {
        if (
          refuseNul &&
          bytes[index + 1] === LETTER_U &&
          bytes[index + 2] === DIGIT_0 &&
          bytes[index + 3] === DIGIT_0 &&
          bytes[index + 4] === DIGIT_0 &&
          bytes[index + 5] === DIGIT_0
        )
          return { kind: 'nul', position: index };
        index += 1;
      } else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth)
        return {
          kind: 'depth',
          position: index,
          container: byte === OPEN_BRACE ? 'object' : 'array',
          maxDepth,
        };
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1;
  }
  return undefined;
}

/** JSON.parse after jsonInputProblem: throws a JsonInputError for a refused body, the parser's SyntaxError otherwise. */
export function parseJsonInput(bytes: Uint8Array, rules: JsonInputRules = {}): unknown {
  const problem = jsonInputProblem(bytes, rules);
  if (problem) throw new JsonInputError(problem);
  return JSON.parse(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  ) as unknown;
}

/**
 * body-parser's `verify` hook applying jsonInputProblem to UTF-8 bodies (body-parser refuses charsets other than
 * `utf-*` itself; UTF-16/32 bodies are left to it): the request fails with a JsonInputError (400) before JSON.parse.
 */
export function jsonInputVerifier(rules: JsonInputRules = {}) {
  return (_request: IncomingMessage, _response: unknown, body: Buffer, encoding: string | null): void => {
    if (encoding !== null && !/^utf-?8$/i.test(encoding)) return;
    const problem = jsonInputProblem(body, rules);
    if (problem) throw new JsonInputError(problem);
  };
}
