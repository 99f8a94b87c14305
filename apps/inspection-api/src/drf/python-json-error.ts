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
