import { type JsonInputProblem } from '@fieldops/platform';

/**
 * Words a JSON syntax error the way Python's json module does (DRF puts that text after
 * "JSON parse error - "): `Expecting value: line 1 column 9 (char 8)`.
 */
export function pythonJsonError(error: Error, body: string | undefined): string {
  const text = body ?? '';
  const message = error.message;
  const positionMatch = /position (\d+)/.exec(message);
  let position = positionMatch ? Number(positionMatch[1]) : text.length;
  let what = 'Expecting value';
  if (/Unexpected end of JSON input/.test(message)) {
    position = text.length;
    what =
      /"[^"]*$/.test(text) && (text.match(/"/g)?.length ?? 0) % 2 === 1
        ? 'Unterminated string starting at'
        : 'Expecting value';
    if (what === 'Unterminated string starting at') position = text.lastIndexOf('"');
  } else if (/Expected property name/.test(message)) {
    what = 'Expecting property name enclosed in double quotes';
  } else if (/Expected ',' or '}'/.test(message) || /Expected ',' or ']'/.test(message)) {
    what = "Expecting ',' delimiter";
  } else if (/Expected ':'/.test(message)) {
    what = "Expecting ':' delimiter";
  } else if (/non-whitespace character after JSON/.test(message)) {
    what = 'Extra data';
  } else if (/Bad control character/.test(message)) {
    what = 'Invalid control character at';
  } else if (/Bad escaped character|Bad Unicode escape/.test(message)) {
    what = 'Invalid \\escape';
  } else if (/Unterminated string/.test(message)) {
    what = 'Unterminated string starting at';
  }
  position = Math.max(0, Math.min(position, text.length));
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - (before.lastIndexOf('\n') + 1) + 1;
  return `${what}: line ${line} column ${column} (char ${position})`;
}

/**
 * Words a body the platform's JSON input rules refused the way Python does when DRF's JSONParser reads it: invalid
 * UTF-8 as the codec's UnicodeDecodeError (`'utf-8' codec can't decode byte 0xff in position 9: invalid start
 * byte`), nesting deeper than the limit as the decoder's RecursionError (which DRF itself would let through as a 500).
 */
export function pythonJsonInputError(problem: JsonInputProblem): string {
  switch (problem.kind) {
    case 'encoding': {
      const where =
        problem.bytes > 1
          ? `bytes in position ${problem.position}-${problem.position + problem.bytes - 1}`
          : `byte 0x${problem.byte.toString(16).padStart(2, '0')} in position ${problem.position}`;
      return `'utf-8' codec can't decode ${where}: ${problem.reason}`;
    }
    case 'depth':
      return `maximum recursion depth exceeded while decoding a JSON ${problem.container} from a unicode string`;
    case 'nul':
      return 'Null characters are not allowed.';
  }
}
